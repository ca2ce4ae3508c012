//! The framework glue: the nice-plug `Plugin` impl. It maps parameters onto the engine,
//! splits each block at events so each acts at its exact sample (the events themselves
//! are in `events`), and reports ended voices to CLAP hosts. No physics here.

use crate::editor::ReboundEditor;
use crate::engine::level::LevelWorker;
use crate::engine::{ContactTrace, Engine};
use crate::handoff::EditorShared;
use crate::handoff::capture::Recorder;
use crate::handoff::pad::{PadEvent, PadReceiver, pad_channel};
use crate::handoff::peak::block_peak;
use crate::params::ReboundParams;
use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::prelude::*;
use nice_plug_egui::RepaintNotifier;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Check for allocations inside `process()` in debug builds (tests and debug bundles):
/// with `warn_debug` each allocation is reported and counted, not fatal.
#[cfg(debug_assertions)]
#[global_allocator]
static ALLOCATOR: assert_no_alloc::AllocDisabler = assert_no_alloc::AllocDisabler;

mod events;

pub struct Rebound {
    params: Arc<ReboundParams>,
    engine: Engine,
    shared: Arc<EditorShared>,
    last_seq: u64,
    /// The audio thread's end of the strike pad's ring (the editor holds the other).
    pad_notes: PadReceiver,
    /// Records the last note's output for the editor.
    capture: Recorder,
    /// Makes the level tables in real time (see `engine::level`); none offline, where
    /// each table entry is made before the note that needs it.
    level_worker: Option<LevelWorker>,
    /// The events of one timestamp (see `events`), made here, never grown.
    batch: Vec<NoteEvent<()>>,
    /// The bypass fade's gain, 1 (playing) to 0 (bypassed).
    bypass_gain: f32,
}

/// The bypass fades the output over this long, s: no click either way.
const BYPASS_FADE: f32 = 0.01;

impl Default for Rebound {
    fn default() -> Self {
        let (input, output) = triple_buffer::triple_buffer(&ContactTrace::default());
        let mut engine = Engine::new(48000.0);
        engine.set_trace_sink(input);
        let (capture, capture_out) = Recorder::new();
        let (pad, pad_notes) = pad_channel();
        Self {
            params: Arc::new(ReboundParams::default()),
            engine,
            shared: Arc::new(EditorShared {
                trace: Mutex::new(output),
                guard_events: AtomicU64::new(0),
                active_voices: AtomicU32::new(0),
                repaint: RepaintNotifier::new(),
                pad,
                meter: Default::default(),
                capture: Mutex::new(capture_out),
            }),
            last_seq: 0,
            pad_notes,
            capture,
            level_worker: None,
            batch: Vec::with_capacity(events::BATCH),
            bypass_gain: 1.0,
        }
    }
}

impl Rebound {
    /// The engine, for tests that inspect it after driving `process()`.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }
    /// True when the level tables are made for the patch and rate now (see
    /// `engine::level`), for tests and tools that wait for a real-time plugin's worker.
    pub fn levels_ready(&mut self) -> bool {
        self.engine.levels_ready()
    }

    /// True while a level worker thread runs (between `activate` and `deactivate`, in
    /// real time), for tests.
    pub fn level_worker_running(&self) -> bool {
        self.level_worker.is_some()
    }

    /// Starts the level worker. If the system cannot start a thread, the failure is
    /// logged and the levels are made on demand, in the note-on that needs them: the
    /// notes keep their calibrated level at the cost of a strike's simulation each.
    fn start_level_worker(&mut self) {
        match LevelWorker::spawn() {
            Ok((worker, link)) => {
                self.engine.use_level_worker(link);
                self.level_worker = Some(worker);
            }
            Err(e) => {
                nice_error!(
                    "Rebound: the level worker thread did not start ({e}); levels are made in the note-on"
                );
                self.engine.use_levels_on_demand();
            }
        }
    }

    /// The parameters (also reachable through `Plugin::params`).
    pub fn rebound_params(&self) -> Arc<ReboundParams> {
        self.params.clone()
    }
    /// What the plugin shares with its editor (pad, meter, capture), for tests.
    pub fn editor_shared(&self) -> Arc<EditorShared> {
        self.shared.clone()
    }

    /// Notes from the editor's strike pad, played at the block's first sample.
    fn play_pad(&mut self) {
        while let Some(e) = self.pad_notes.pop() {
            match e {
                PadEvent::On { key, velocity } => {
                    self.engine.note_on(key, velocity, 0, None);
                    self.capture.arm(0);
                }
                PadEvent::Off { key } => self.engine.note_off(Some(key), Some(0), None),
            }
        }
    }

    /// Reports the voices that ended, each at the sample it ended relative to the block
    /// that started at engine time `start`. Ends caused by events at or past the block's
    /// end go on its last sample, so every event stays inside the block and in order.
    /// A zero-length block keeps them for the next one.
    fn report_terminated(
        &mut self,
        start: u64,
        len: usize,
        context: &mut impl ProcessContext<Self>,
    ) {
        if len == 0 {
            return;
        }
        let last = len as u64 - 1;
        for t in self.engine.terminated() {
            let _ = context.try_send_event(NoteEvent::VoiceTerminated {
                timing: t.at.saturating_sub(start).min(last) as u32,
                voice_id: t.voice_id.map_or(VoiceID::Wildcard, VoiceID::ID),
                channel: Channel::Number(t.channel),
                key: Key::Number(t.key),
            });
        }
        self.engine.clear_terminated();
    }

    fn process_block(&mut self, buffer: &mut Buffer, context: &mut impl ProcessContext<Self>) {
        let p = self.params.engine_params();
        self.engine.set_params(&p);
        let n = buffer.samples();
        let start = self.engine.clock();
        let outputs = buffer.as_slice();
        let mut next = context.next_event();
        let mut pos = 0usize;
        // Left over from a zero-length block.
        self.report_terminated(start, n, context);
        while pos < n {
            while let Some(ev) = next
                && ev.timing() as usize <= pos
            {
                next = self.handle_timestamp(ev, start, n, context);
            }
            if pos == 0 {
                // After the host's events of the first sample, which then act before
                // its strikes too.
                self.play_pad();
            }
            let end = next
                .map_or(n, |e| (e.timing() as usize).min(n))
                .max(pos + 1)
                .min(n);
            match outputs {
                [] => {}
                // A mono output gets the fold-down (L + R) / 2.
                [mono] => self.engine.render_mono(&mut mono[pos..end]),
                [left, right, rest @ ..] => {
                    self.engine
                        .render(&mut left[pos..end], &mut right[pos..end]);
                    // Channels past the pair (not in the declared layout) get silence.
                    for ch in rest.iter_mut() {
                        ch[pos..end].fill(0.0);
                    }
                }
            }
            self.report_terminated(start, n, context);
            pos = end;
        }
        // Events stamped at or past the end of the block (hosts should not send them;
        // nice-plug clamps them): handled now, their ends reported on the last sample.
        while let Some(ev) = next {
            next = self.handle_timestamp(ev, start, n, context);
        }
        self.apply_bypass(outputs);
        self.shared
            .guard_events
            .store(self.engine.guard_events(), Ordering::Relaxed);
        let seq = self.engine.last_trace().seq;
        if seq != self.last_seq {
            self.last_seq = seq;
            self.shared.repaint.request_repaint();
        }
    }
}

impl Rebound {
    /// Fades the block's output toward silence while bypassed, and back (linearly over
    /// [`BYPASS_FADE`]); leaves it untouched, bit for bit, while playing.
    fn apply_bypass(&mut self, outputs: &mut [&mut [f32]]) {
        let target = if self.params.bypass.value() { 0.0 } else { 1.0 };
        if self.bypass_gain == target && target == 1.0 {
            return;
        }
        let step = 1.0 / (BYPASS_FADE * self.engine.sample_rate() as f32).max(1.0);
        let n = outputs.first().map_or(0, |c| c.len());
        for i in 0..n {
            self.bypass_gain = if target > self.bypass_gain {
                (self.bypass_gain + step).min(target)
            } else {
                (self.bypass_gain - step).max(target)
            };
            for ch in outputs.iter_mut() {
                ch[i] *= self.bypass_gain;
            }
        }
    }
}

impl Plugin for Rebound {
    const NAME: &'static str = "Rebound";
    const VENDOR: &'static str = "Rebound";
    const URL: &'static str = "https://example.invalid/rebound";
    const EMAIL: &'static str = "rebound@example.invalid";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");

    /// Stereo first; a mono output gets the fold-down `(L + R) / 2`.
    const AUDIO_IO_LAYOUTS: &'static [AudioIOLayout] = &[
        AudioIOLayout {
            main_input_channels: None,
            main_output_channels: NonZeroU32::new(2),
            ..AudioIOLayout::const_default()
        },
        AudioIOLayout {
            main_input_channels: None,
            main_output_channels: NonZeroU32::new(1),
            ..AudioIOLayout::const_default()
        },
    ];
    /// CCs: pitch bend, channel pressure, CC 74 and the mod wheel reach the engine.
    const MIDI_INPUT: MidiConfig = MidiConfig::MidiCCs;
    /// Off: with it on, nice-plug's VST3 wrapper queues every automation point in a
    /// vector of `INPUT_EVENT_CAPACITY` events, which per-sample automation of all
    /// parameters overflows (an allocation on the audio thread). Nothing is lost: contact
    /// parameters are latched at each onset and body/output ones smoothed in the engine.
    const SAMPLE_ACCURATE_AUTOMATION: bool = false;
    /// The VST3 wrapper brings every MIDI CC, channel pressure and pitch bend in as a
    /// change of one of its 16 × 130 stand-in parameters, queued as an event: a host
    /// that sets all of them before one block (pluginval's editor automation does, and
    /// the next block, its parameter thread-safety test's first, carries them all)
    /// queues 2080, past the default 1024, and the queue grows on the audio thread.
    /// Room for two points of each, and the notes.
    const INPUT_EVENT_CAPACITY: usize = 8192;

    type Editor = ReboundEditor;
    type SysExMessage = ();
    type BackgroundTask = ();

    fn params(&self) -> Arc<dyn Params> {
        self.params.clone()
    }

    fn filter_state(state: &mut PluginState) {
        crate::params::sanitize_state(state);
    }

    fn editor(&mut self, _async_executor: AsyncExecutor<Self>) -> Option<Self::Editor> {
        Some(ReboundEditor::new(self.params.clone(), self.shared.clone()))
    }

    fn activate(
        &mut self,
        _layout: &AudioIOLayout,
        config: &BufferConfig,
        context: &mut impl ActivateContext<Self>,
    ) -> bool {
        let fs = config.sample_rate as f64;
        if !(fs.is_finite() && fs > 0.0) {
            return false;
        }
        self.engine.set_params(&self.params.engine_params());
        self.engine.set_sample_rate(fs);
        // In real time no strike is played ahead on the audio thread: a worker makes
        // the level tables. Offline (a host's bounce) the engine makes each entry
        // before the note that needs it, so a bounce does not depend on timing.
        let realtime = config.process_mode != ProcessMode::Offline;
        if realtime && self.level_worker.is_none() {
            self.start_level_worker();
        } else if !realtime && self.engine.has_level_worker() {
            self.engine.use_levels_on_demand();
            self.level_worker = None;
        }
        self.capture.set_sample_rate(fs);
        context.set_current_voice_capacity(crate::engine::MAX_VOICES as u32);
        true
    }

    /// The level worker stops with the plugin's processing: a deactivated plugin
    /// (a host's track switched off, or a plugin loaded and never played) keeps no
    /// thread. The next `activate` starts a new one.
    fn deactivate(&mut self) {
        self.level_worker = None;
    }

    fn reset(&mut self) {
        self.engine.reset();
    }

    fn process(
        &mut self,
        buffer: &mut Buffer,
        _aux: &mut AuxiliaryBuffers,
        context: &mut impl ProcessContext<Self>,
    ) -> ProcessStatus {
        assert_no_alloc::assert_no_alloc(|| {
            self.process_block(buffer, context);
            let out = buffer.as_slice_immutable();
            self.shared.meter.record(block_peak(out));
            self.capture.feed(out);
        });
        let active = self.engine.active_voices();
        self.shared
            .active_voices
            .store(active as u32, Ordering::Relaxed);
        // Normal lets an idle instrument sleep (CLAP: CONTINUE_IF_NOT_QUIET; VST3: no
        // tail); KeepAlive (CLAP: CONTINUE; VST3: infinite tail) while a voice sounds.
        if active > 0 {
            ProcessStatus::KeepAlive
        } else {
            ProcessStatus::Normal
        }
    }
}

impl ClapPlugin for Rebound {
    const CLAP_ID: &'static str = "org.rebound.rebound";
    const CLAP_DESCRIPTION: Option<&'static str> =
        Some("Hunt–Crossley impact and bouncing synthesizer with energy-corrected integrators");
    const CLAP_MANUAL_URL: Option<&'static str> = None;
    const CLAP_SUPPORT_URL: Option<&'static str> = None;
    /// Needed for the voice-info extension and `set_current_voice_capacity`.
    const CLAP_POLY_MODULATION_CONFIG: Option<PolyModulationConfig> = Some(PolyModulationConfig {
        max_voice_capacity: crate::engine::MAX_VOICES as u32,
        // A note on a sounding key and channel re-strikes its voice: no second voice.
        supports_overlapping_voices: false,
    });
    const CLAP_FEATURES: &'static [ClapFeature] = &[
        ClapFeature::Instrument,
        ClapFeature::Synthesizer,
        ClapFeature::Stereo,
    ];
}

impl Vst3Plugin for Rebound {
    const VST3_CLASS_ID: [u8; 16] = *b"ReboundImpactHC1";
    const VST3_SUBCATEGORIES: &'static [Vst3SubCategory] = &[
        Vst3SubCategory::Instrument,
        Vst3SubCategory::Drum,
        Vst3SubCategory::Synth,
    ];
}

// The CLAP entry point is `plugin_clap::clap_entry`: nice-plug's plugin factory plus
// the preset-discovery factory and the preset-load extension.
nice_export_vst3!(Rebound);
