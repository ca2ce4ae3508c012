//! The stereo output: the engine renders left and right, the offline render keeps
//! both, and a one-channel host gets the fold-down `(L + R) / 2` without allocating.

use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::engine::{Engine, EngineParams, NoteSpec, render};

mod support;
use support::*;

/// A few notes across the keyboard, some overlapping.
fn notes() -> Vec<NoteSpec> {
    [(0, 36), (700, 60), (1500, 84), (1600, 67)]
        .into_iter()
        .map(|(at, key)| NoteSpec {
            at,
            key,
            velocity: 0.9,
            off: None,
        })
        .collect()
}

#[test]
fn mono_render_is_the_fold_down_of_the_stereo_one() {
    let fs = 48_000.0;
    let p = EngineParams::default();
    let total = 6000;
    let stereo = render(&p, fs, &notes(), total);
    let mut e = Engine::new(fs);
    e.set_params(&p);
    e.set_sample_rate(fs);
    let mut mono = vec![0.0f32; total];
    let mut pos = 0;
    for n in notes() {
        // Odd lengths, so the stack chunks end mid-way.
        e.render_mono(&mut mono[pos..n.at]);
        pos = n.at;
        e.note_on(n.key, n.velocity, 0, None);
    }
    e.render_mono(&mut mono[pos..]);
    assert!(stereo.peak() > 0.1, "silent: {}", stereo.peak());
    assert_eq!(stereo.len(), total);
    let want = stereo.mono();
    for (i, (a, b)) in mono.iter().zip(&want).enumerate() {
        assert_eq!(a.to_bits(), b.to_bits(), "sample {i}: {a} vs {b}");
    }
}

#[test]
fn rendered_peak_is_over_both_channels() {
    let r = render(&EngineParams::default(), 48_000.0, &notes(), 4000);
    let l = r.left.iter().fold(0f32, |m, v| m.max(v.abs()));
    let rr = r.right.iter().fold(0f32, |m, v| m.max(v.abs()));
    assert_eq!(r.peak(), l.max(rr));
    assert_eq!(r.right.len(), r.left.len());
}

/// Runs `total` samples through `process()` with a one-channel output.
fn run_mono(p: &mut Rebound, block: usize, total: usize, events: &[NoteEvent<()>]) -> Vec<f32> {
    let mut out = vec![0.0f32; total];
    let mut ctx = TestProcess::new();
    let mut start = 0;
    while start < total {
        let n = block.min(total - start);
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
        let o = &mut out[start..start + n];
        unsafe {
            buffer.set_slices(n, |slices| {
                slices.clear();
                slices.push(o);
            });
        }
        let mut aux = AuxiliaryBuffers {
            inputs: &mut [],
            outputs: &mut [],
        };
        let status = p.process(&mut buffer, &mut aux, &mut ctx);
        assert!(!matches!(status, ProcessStatus::Error(_)));
        start += n;
    }
    out
}

#[test]
fn a_mono_host_gets_the_fold_down_without_allocating() {
    let layouts = Rebound::AUDIO_IO_LAYOUTS;
    assert!(
        layouts
            .iter()
            .any(|l| l.main_output_channels.map(|c| c.get()) == Some(1)),
        "no mono layout"
    );
    let events = [note_on(10, 48, 1.0), note_on(300, 72, 0.7)];
    let total = 5000;
    for block in [1usize, 100, 513] {
        let mut stereo = activated(48000.0, block as u32);
        let (l, r, _) = run(&mut stereo, block, total, &events);
        let mut mono = activated(48000.0, block as u32);
        let before = alloc_violations();
        let m = run_mono(&mut mono, block, total, &events);
        assert_eq!(
            alloc_violations() - before,
            0,
            "allocations inside process()"
        );
        assert!(m.iter().any(|s| s.abs() > 0.05), "silent");
        for i in 0..total {
            let want = 0.5 * (l[i] + r[i]);
            assert_eq!(m[i].to_bits(), want.to_bits(), "block {block}, sample {i}");
        }
    }
}
