//! The engine proper: voice allocation and stealing, note events, the per-sample loop
//! over the voices, the control-rate body smoothing and the hand-off of the last
//! contact's trace. The output stage is in `output`, the voice itself in `voice`.

use crate::engine::expression::ChannelExpression;
use crate::engine::expression::humanize::Humanizer;
use crate::engine::expression::mpe::Zones;
use crate::engine::level::{Levels, WorkerLink};
use crate::engine::output::OutputStage;
use crate::engine::params::{EngineParams, MAX_VOICES};
use crate::engine::smoothing::{SMOOTHING_TIME, Smoothed};
use crate::engine::trace::ContactTrace;
use crate::engine::trace::recorder::Tracer;
use crate::engine::voice::{StrikeSetup, Voice, VoiceSample};

/// Extra slots so stolen voices can finish their fade while their successors sound.
const FADE_SLOTS: usize = 8;
const SLOTS: usize = MAX_VOICES + FADE_SLOTS;
/// Body settings and silence checks run every this many samples.
const CONTROL_BLOCK: u32 = 32;
/// Capacity of the per-block list of ended voices.
const TERMINATED_CAPACITY: usize = 2 * SLOTS;

/// The body settings the engine smooths, in the order of `body_smooth`: pitch and
/// decay glide in the log domain (a glide in Hz or seconds would sound uneven).
fn body_targets(p: &EngineParams) -> [f64; 5] {
    [
        p.body_freq.ln(),
        p.key_track,
        p.t60.ln(),
        p.brightness,
        p.position,
    ]
}

/// A voice that ended, reported to the host (CLAP voice terminated).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Terminated {
    /// Engine sample ([`Engine::clock`]) at which the voice ended: its last rendered
    /// sample, or the next one when a note event ended it between samples.
    pub at: u64,
    pub voice_id: Option<i32>,
    pub channel: u8,
    pub key: u8,
}

pub struct Engine {
    fs: f64,
    params: EngineParams,
    /// Body settings after smoothing (control rate), handed to the voices.
    body_params: EngineParams,
    voices: Box<[Voice; SLOTS]>,
    /// Note-ons since the last reset: the voices' age (oldest stolen first), trains' seeds.
    now: u64,
    control: u32,
    output: OutputStage,
    mix: Smoothed,
    /// Stereo width, smoothed per sample.
    width: Smoothed,
    body_smooth: [Smoothed; 5],
    guard_events: u64,
    /// Moves whenever what a voice's own parameters are made from changes: the parameters,
    /// the smoothed body parameters, any voice's expression (see `Voice::own_now`).
    epoch: u64,
    terminated: [Terminated; TERMINATED_CAPACITY],
    n_terminated: usize,
    /// Samples rendered since creation: the time base of [`Terminated::at`].
    clock: u64,
    tracer: Box<Tracer>,
    /// The humanize sequence: one draw per note-on, restarted by `reset`.
    humanizer: Humanizer,
    published: Box<ContactTrace>,
    trace_sink: Option<triple_buffer::Input<ContactTrace>>,
    /// What each MIDI channel applies to its notes (MPE), and the mod wheel.
    channels: [ChannelExpression; 16],
    wheel: f64,
    /// The sustain pedal held down, per MIDI channel: a note-off then leaves its note
    /// sounding until the pedal comes up (see `notes`).
    sustain: [bool; 16],
    /// The MPE zones, and the bend of each zone's master channel (lower, upper).
    zones: Zones,
    zone_bend: [f64; 2],
    /// The calibrated gains of a strike, by key (see `level`).
    levels: Levels,
    /// The last strike's set-up, for the next (see `StrikeSetup`).
    setup: StrikeSetup,
}

impl Engine {
    pub fn new(fs: f64) -> Self {
        let params = EngineParams::default();
        let voices = Box::new([Voice::new(fs); SLOTS]);
        let setup = voices[0].setup();
        let mut e = Self {
            fs,
            params,
            body_params: params,
            voices,
            now: 0,
            control: 0,
            output: OutputStage::new(fs),
            mix: Smoothed::new(
                crate::engine::level::law::mix_of(&params, params.mix),
                SMOOTHING_TIME,
                fs,
            ),
            width: Smoothed::new(params.width, SMOOTHING_TIME, fs),
            body_smooth: [Smoothed::new(0.0, SMOOTHING_TIME, fs); 5],
            guard_events: 0,
            epoch: 0,
            terminated: [Terminated::default(); TERMINATED_CAPACITY],
            n_terminated: 0,
            clock: 0,
            tracer: Box::new(Tracer::new()),
            humanizer: Humanizer::default(),
            published: Box::new(ContactTrace::default()),
            trace_sink: None,
            channels: [ChannelExpression::default(); 16],
            wheel: 0.0,
            sustain: [false; 16],
            zones: Zones::default(),
            zone_bend: [0.0; 2],
            levels: Levels::on_demand(fs),
            setup,
        };
        e.set_sample_rate(fs);
        e
    }

    /// Publishes each finished contact's trace into this triple buffer (for the editor).
    pub fn set_trace_sink(&mut self, sink: triple_buffer::Input<ContactTrace>) {
        self.trace_sink = Some(sink);
    }

    /// Changes the sample rate and silences everything (not for the audio thread's
    /// steady state, but allocation-free).
    pub fn set_sample_rate(&mut self, fs: f64) {
        self.fs = fs;
        for v in self.voices.iter_mut() {
            *v = Voice::new(fs);
        }
        self.output = OutputStage::new(fs);
        self.output.set_gain(self.params.gain_db);
        self.mix = Smoothed::new(
            crate::engine::level::law::mix_of(&self.params, self.params.mix),
            SMOOTHING_TIME,
            fs,
        );
        self.width = Smoothed::new(self.params.width, SMOOTHING_TIME, fs);
        let control_rate = fs / CONTROL_BLOCK as f64;
        let init = body_targets(&self.params);
        for (s, v) in self.body_smooth.iter_mut().zip(init) {
            *s = Smoothed::new(v, SMOOTHING_TIME, control_rate);
        }
        self.body_params = self.params;
        self.epoch += 1;
        self.levels.set(&self.params, fs);
        self.reset();
    }

    /// Takes the level calibration from a background worker's tables from now on (the
    /// plugin in real time); without one it is made on demand, before the note that
    /// needs it (offline renders, the CLI, tests).
    pub fn use_level_worker(&mut self, link: WorkerLink) {
        self.levels.use_worker(link);
    }

    /// Makes the level calibration on demand again (see [`Self::use_level_worker`]).
    pub fn use_levels_on_demand(&mut self) {
        self.levels.use_on_demand();
    }

    /// True when a level worker fills the tables.
    pub fn has_level_worker(&self) -> bool {
        self.levels.has_worker()
    }

    /// Calibrates the level of `keys` for the patch now, where it is made on demand:
    /// an offline render does this before its first note, so no note-on plays ahead.
    pub fn prepare_levels(&mut self, keys: impl IntoIterator<Item = u8>) {
        self.levels.prepare(keys);
    }

    /// True when every key's level is calibrated for the patch now.
    pub fn levels_ready(&mut self) -> bool {
        self.levels.is_complete()
    }

    /// Silences all voices and clears the output stage.
    pub fn reset(&mut self) {
        for v in self.voices.iter_mut() {
            v.kill();
        }
        self.output.reset();
        self.channels = [ChannelExpression::default(); 16];
        self.wheel = 0.0;
        self.sustain = [false; 16];
        // The zones are the controller's set-up and stay; their bends are expression.
        self.zone_bend = [0.0; 2];
        self.humanizer.reset();
        // A new playback or export bounces each train as the last one did.
        self.now = 0;
        self.n_terminated = 0;
        self.tracer.slot = None;
    }

    pub fn sample_rate(&self) -> f64 {
        self.fs
    }
    pub fn params(&self) -> &EngineParams {
        &self.params
    }

    /// Sets the parameters. Contact parameters apply from the next impact (latched at
    /// onset); body and output parameters glide. Values outside the plugin's ranges are
    /// clamped and NaN becomes the default, so nothing downstream sees them.
    pub fn set_params(&mut self, p: &EngineParams) {
        let p = p.within_limits();
        let kind_changed = p.body != self.params.body;
        if p != self.params {
            self.epoch += 1;
            // The next note's strike set-up solved now (see `StrikeSetup::prime`).
            self.setup.prime(&p, &self.body_params, self.fs);
        }
        self.params = p;
        self.levels.set(&p, self.fs);
        if kind_changed {
            self.body_params.body = p.body;
        }
    }

    /// Samples rendered so far (the time base of [`Terminated::at`]).
    pub fn clock(&self) -> u64 {
        self.clock
    }
    /// Largest |output| since the last reset (nothing clips it).
    pub fn output_peak(&self) -> f64 {
        self.output.peak()
    }

    /// Voices that ended since the last [`clear_terminated`](Self::clear_terminated).
    pub fn terminated(&self) -> &[Terminated] {
        &self.terminated[..self.n_terminated]
    }
    /// Clears the list of ended voices (the plugin does this after reporting them).
    pub fn clear_terminated(&mut self) {
        self.n_terminated = 0;
    }

    /// Runaway or non-finite states caught so far.
    pub fn guard_events(&self) -> u64 {
        self.guard_events
    }

    /// Samples at which a voice's ceiling engaged, over all voices since the rate was
    /// last set (0 while every strike is as calibrated), for tests and diagnostics.
    pub fn ceiling_engagements(&self) -> u64 {
        self.voices.iter().map(Voice::ceiling_engagements).sum()
    }

    /// How far over the ceiling the loudest turned-down sample of any voice was (1:
    /// none), since the rate was last set.
    pub fn ceiling_overshoot(&self) -> f64 {
        self.voices
            .iter()
            .map(Voice::ceiling_overshoot)
            .fold(1.0, f64::max)
    }

    /// Voices whose two-way strike was ended early on its work budget (see
    /// `voice/two_way/budget.rs`), for tests and the cost bench.
    pub fn two_way_cuts(&self) -> usize {
        self.voices
            .iter()
            .filter(|v| v.two_way().is_some_and(|t| t.cut))
            .count()
    }

    /// Rigid bouncing trains ended early on their work budget (see
    /// `model::bounce::TRAIN_WORK_BUDGET`) since the engine was made, for tests and
    /// the cost bench.
    pub fn train_cuts(&self) -> usize {
        self.voices.iter().map(|v| v.train_cuts() as usize).sum()
    }

    /// Level-table entries made on demand so far (see `level`).
    pub fn calibrations(&self) -> u64 {
        self.levels.calibrations()
    }

    /// Voices sounding (including fading ones).
    pub fn active_voices(&self) -> usize {
        self.voices.iter().filter(|v| v.is_active()).count()
    }

    /// The last published contact trace.
    pub fn last_trace(&self) -> &ContactTrace {
        &self.published
    }

    fn report(&mut self, slot: usize) {
        self.report_at(slot, self.clock);
    }

    /// Records that the voice in `slot` ended at engine time `at`.
    fn report_at(&mut self, slot: usize, at: u64) {
        let v = &self.voices[slot];
        if self.n_terminated < TERMINATED_CAPACITY {
            self.terminated[self.n_terminated] = Terminated {
                at,
                voice_id: v.voice_id,
                channel: v.channel,
                key: v.key,
            };
            self.n_terminated += 1;
        }
    }

    /// The parameters with the smoothed body settings: what voices see now.
    fn body_params_now(&self) -> EngineParams {
        let mut p = self.params;
        let b = &self.body_params;
        p.body_freq = b.body_freq;
        p.key_track = b.key_track;
        p.t60 = b.t60;
        p.brightness = b.brightness;
        p.position = b.position;
        p
    }

    fn trace_voice(&mut self, slot: usize) {
        self.tracer.follow(slot, &self.params);
    }

    fn next_width(&mut self) -> f64 {
        let target = self.params.width.clamp(0.0, 1.0);
        let w = self.width.next(target);
        if (w - target).abs() < 1e-9 {
            self.width.value = target;
            return target;
        }
        w
    }

    /// Control rate: body smoothing and retuning, a held roll's gains, silent voices' end.
    fn control_tick(&mut self) {
        let p = self.params;
        let targets = body_targets(&p);
        let mut vals = [0.0; 5];
        for (i, t) in targets.into_iter().enumerate() {
            vals[i] = self.body_smooth[i].next(t);
        }
        let before = self.body_params;
        self.body_params.body_freq = vals[0].exp();
        self.body_params.key_track = vals[1];
        self.body_params.t60 = vals[2].exp();
        self.body_params.brightness = vals[3];
        self.body_params.position = vals[4];
        if self.body_params != before {
            self.epoch += 1;
        }
        let bp = self.body_params_now();
        for i in 0..SLOTS {
            let v = &mut self.voices[i];
            if !v.is_active() {
                continue;
            }
            v.update_body(&bp);
            v.regain(&p, self.mix.value, &mut self.levels);
            if v.is_silent() {
                v.kill();
                self.report(i);
            }
        }
        // The poles a note struck now reads (mid-glide too): made here, not in its note-on.
        crate::model::body::prime_retune(&crate::engine::voice::body_settings(&bp, 60), self.fs);
    }

    fn trace_sample(&mut self, slot: usize, s: &VoiceSample) {
        let t = &mut self.tracer;
        let publish = t.voice_sample(&self.voices[slot], &s.contact, &self.params, self.fs);
        if publish {
            t.work.seq += 1;
            t.work.guard_events = self.guard_events;
            (*self.published).clone_from(&t.work);
            if let Some(sink) = self.trace_sink.as_mut() {
                sink.input_buffer_mut().clone_from(&t.work);
                sink.publish();
            }
        }
    }
}

pub(super) mod addressing;
mod notes;
mod render;
mod routing;

#[cfg(test)]
mod tests;
