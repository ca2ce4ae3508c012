//! Shared harness for the plugin contract and state tests: small implementations of
//! nice-plug's contexts that drive the real `process()` one block at a time, with the
//! checks the framework itself makes in debug builds.
#![allow(dead_code)]

use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::params::ReboundParams;
use std::collections::VecDeque;

/// Activation context. Like nice-plug's CLAP wrapper, it refuses a voice capacity
/// without a polyphonic-modulation config or outside `1..=max_voice_capacity`.
pub struct TestActivate;

impl ActivateContext<Rebound> for TestActivate {
    fn plugin_api(&self) -> PluginApi {
        PluginApi::Clap
    }
    fn execute(&self, _task: ()) {}
    fn set_latency_samples(&self, _samples: u32) {}
    fn set_current_voice_capacity(&self, capacity: u32) {
        let config = Rebound::CLAP_POLY_MODULATION_CONFIG
            .expect("voice capacity set without CLAP_POLY_MODULATION_CONFIG");
        assert!(
            (1..=config.max_voice_capacity).contains(&capacity),
            "voice capacity {capacity} outside 1..={}",
            config.max_voice_capacity
        );
    }
}

pub struct TestProcess {
    pub events: VecDeque<NoteEvent<()>>,
    pub sent: Vec<NoteEvent<()>>,
    pub transport: Transport,
}

impl TestProcess {
    pub fn new() -> Self {
        Self {
            events: VecDeque::with_capacity(Rebound::INPUT_EVENT_CAPACITY),
            // A host's output queue takes every event: room for a burst of the whole
            // input queue's notes, each ending a voice (four times its capacity).
            sent: Vec::with_capacity(4 * Rebound::INPUT_EVENT_CAPACITY),
            transport: Transport::new(48000.0),
        }
    }
}

impl ProcessContext<Rebound> for TestProcess {
    fn plugin_api(&self) -> PluginApi {
        PluginApi::Clap
    }
    fn execute_background(&self, _task: ()) {}
    fn execute_gui(&self, _task: ()) {}
    fn transport(&self) -> &Transport {
        &self.transport
    }
    fn next_event(&mut self) -> Option<NoteEvent<()>> {
        self.events.pop_front()
    }
    fn try_send_event(
        &mut self,
        event: NoteEvent<()>,
    ) -> Result<(), (NoteEvent<()>, nice_plug::context::process::SendEventError)> {
        // Capacity is reserved up front, so this never allocates inside process().
        if self.sent.len() < self.sent.capacity() {
            self.sent.push(event);
        }
        Ok(())
    }
    fn set_latency_samples(&self, _samples: u32) {}
    fn request_restart(&self) {}
    fn set_current_voice_capacity(&self, _capacity: u32) {}
}

/// A plugin activated at `fs` for blocks of up to `block` samples, rendering offline
/// (a host's bounce: level tables made before the notes that need them).
pub fn activated(fs: f32, block: u32) -> Rebound {
    activated_in(fs, block, ProcessMode::Offline)
}

/// A plugin activated at `fs` for blocks of up to `block` samples in `mode`.
pub fn activated_in(fs: f32, block: u32, mode: ProcessMode) -> Rebound {
    let mut p = Rebound::default();
    activate(&mut p, fs, block, mode);
    p
}

/// (Re)activates `p`, as a host does when the rate, the block size or the mode change.
pub fn activate(p: &mut Rebound, fs: f32, block: u32, mode: ProcessMode) {
    let cfg = BufferConfig {
        sample_rate: fs,
        min_buffer_size: None,
        max_buffer_size: block,
        process_mode: mode,
    };
    assert!(p.activate(&Rebound::AUDIO_IO_LAYOUTS[0], &cfg, &mut TestActivate));
    p.reset();
}

/// Sets a parameter by ID to a normalised value, as a host's automation does.
pub fn set_norm(params: &ReboundParams, id: &str, normalized: f32) {
    let map = params.param_map();
    let (_, ptr, _) = map
        .iter()
        .find(|(i, _, _)| i == id)
        .unwrap_or_else(|| panic!("no param {id}"));
    unsafe {
        ptr._internal_set_normalized_value(normalized);
    }
}

/// Sets a parameter by ID to a plain value (within its range).
pub fn set_plain(params: &ReboundParams, id: &str, plain: f32) {
    let map = params.param_map();
    let (_, ptr, _) = map.iter().find(|(i, _, _)| i == id).unwrap();
    unsafe {
        let n = ptr.preview_normalized(plain);
        ptr._internal_set_normalized_value(n);
    }
}

/// What one block gave back.
pub struct Block {
    pub left: Vec<f32>,
    pub right: Vec<f32>,
    pub status: ProcessStatus,
    pub sent: Vec<NoteEvent<()>>,
}

/// Runs one block of `n` samples with `events` (timings relative to the block; they
/// may lie at or past its end).
pub fn process(
    p: &mut Rebound,
    ctx: &mut TestProcess,
    n: usize,
    events: &[NoteEvent<()>],
) -> Block {
    let mut left = vec![0.0f32; n];
    let mut right = vec![0.0f32; n];
    ctx.events.clear();
    ctx.events.extend(events.iter().copied());
    ctx.sent.clear();
    let mut buffer = Buffer::default();
    unsafe {
        buffer.set_slices(n, |slices| {
            slices.clear();
            slices.push(left.as_mut_slice());
            slices.push(right.as_mut_slice());
        });
    }
    let mut aux = AuxiliaryBuffers {
        inputs: &mut [],
        outputs: &mut [],
    };
    let status = p.process(&mut buffer, &mut aux, ctx);
    drop(buffer);
    let sent = ctx.sent.clone();
    Block {
        left,
        right,
        status,
        sent,
    }
}

/// Allocations the checker has seen inside `assert_no_alloc` on this thread so far.
/// The checker (the global allocator in `src/plugin.rs`) exists only with debug
/// assertions, as in `cargo test`: without them a test that claims "no allocation"
/// fails here rather than passing on a count that cannot move.
pub fn alloc_violations() -> usize {
    #[cfg(debug_assertions)]
    {
        assert_no_alloc::violation_count() as usize
    }
    #[cfg(not(debug_assertions))]
    {
        panic!("the allocation checker needs debug assertions: run `cargo test` without --release")
    }
}

/// Waits (on the test's thread) until `ready`, at most two minutes: for a background
/// worker, such as the one that makes the level tables in real time.
pub fn wait_until(mut ready: impl FnMut() -> bool, what: &str) {
    let start = std::time::Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "{what} did not finish"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// A small seeded generator (xorshift64*), so every failure replays.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    /// Log-uniform in `1..=max`.
    pub fn log_size(&mut self, max: usize) -> usize {
        ((self.unit() as f64 * (max as f64).ln()).exp().round() as usize).clamp(1, max)
    }
}

// ---- Note events and block-by-block runs through `process()` ----

/// The voice ID [`note_on`] gives a note.
pub fn key_id(at: u32, key: u8) -> i32 {
    key as i32 + 1000 * at as i32
}

pub fn note_on(at: u32, key: u8, velocity: f32) -> NoteEvent<()> {
    NoteEvent::NoteOn {
        timing: at,
        voice_id: VoiceID::ID(key_id(at, key)),
        channel: Channel::Number(0),
        key: Key::Number(key),
        velocity,
    }
}

/// Runs `total` samples through `process()` in blocks of `block`, with note events at
/// absolute sample times. Returns (left, right, events sent to the host).
pub fn run(
    p: &mut Rebound,
    block: usize,
    total: usize,
    events: &[NoteEvent<()>],
) -> (Vec<f32>, Vec<f32>, Vec<NoteEvent<()>>) {
    run_with(p, block, total, events, |_, _| {})
}

pub fn run_with(
    p: &mut Rebound,
    block: usize,
    total: usize,
    events: &[NoteEvent<()>],
    mut before_block: impl FnMut(&mut Rebound, usize),
) -> (Vec<f32>, Vec<f32>, Vec<NoteEvent<()>>) {
    let mut left = vec![0.0f32; total];
    let mut right = vec![0.0f32; total];
    let mut ctx = TestProcess::new();
    let mut all_sent = Vec::new();
    let mut start = 0;
    while start < total {
        let n = block.min(total - start);
        before_block(p, start);
        ctx.events.clear();
        for e in events {
            let t = e.timing() as usize;
            if t >= start && t < start + n {
                let mut e = *e;
                e.subtract_timing(start as u32);
                ctx.events.push_back(e);
            }
        }
        let mut buffer = Buffer::default();
        let (l, r) = (&mut left[start..start + n], &mut right[start..start + n]);
        unsafe {
            buffer.set_slices(n, |slices| {
                slices.clear();
                slices.push(l);
                slices.push(r);
            });
        }
        let mut aux = AuxiliaryBuffers {
            inputs: &mut [],
            outputs: &mut [],
        };
        let status = p.process(&mut buffer, &mut aux, &mut ctx);
        assert!(!matches!(status, ProcessStatus::Error(_)));
        all_sent.append(&mut ctx.sent);
        start += n;
    }
    (left, right, all_sent)
}

/// [`run`]'s output, left then right (`total` samples each), checked finite.
pub fn render(p: &mut Rebound, block: usize, total: usize, events: &[NoteEvent<()>]) -> Vec<f32> {
    let (mut l, r, _) = run(p, block, total, events);
    assert!(l.iter().chain(&r).all(|s| s.is_finite()));
    l.extend(r);
    l
}

/// The first sample (of either channel, `total` per channel) where `a` and `b` differ.
pub fn first_difference(a: &[f32], b: &[f32], total: usize) -> Option<usize> {
    let d = |off: usize| {
        a[off..off + total]
            .iter()
            .zip(&b[off..off + total])
            .position(|(u, v)| u != v)
    };
    match (d(0), d(total)) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

/// Onsets found in a dry, DC-blocked output: the first sample of each pulse.
pub fn onsets(y: &[f32]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut quiet = 0;
    for n in 0..y.len() {
        let prev = if n == 0 { 0.0 } else { y[n - 1] };
        let d = (y[n] - prev).abs();
        if d > 1e-5 {
            if quiet >= 2 || n == 0 {
                out.push(n);
            }
            quiet = 0;
        } else {
            quiet += 1;
        }
    }
    out
}

pub fn max_step(y: &[f32]) -> f32 {
    y.windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f32::max)
}

pub fn body_only(p: &mut Rebound) {
    let params = p.rebound_params();
    set_norm(&params, "mix", 1.0);
}

pub fn note_off(at: u32, key: u8, voice_id: i32) -> NoteEvent<()> {
    NoteEvent::NoteOff {
        timing: at,
        voice_id: VoiceID::ID(voice_id),
        channel: Channel::Number(0),
        key: Key::Number(key),
        velocity: 0.0,
    }
}
