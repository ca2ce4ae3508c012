//! The editor's two views and what the Play view shows: the meter's dB scale and peak
//! figure, which preset the browser shows as loaded (through the host's normalised
//! values, after an edit, in a reopened session), and the view saved with the session.

use nice_plug::prelude::*;
use rebound::editor::browser::{Browser, Loaded, loaded, loaded_text, same_sound};
use rebound::editor::meter::{
    METER_FLOOR_DB, METER_TOP_DB, SCALE_MARKS, hold_text, mark_text, scale_fraction,
};
use rebound::editor::view::opening_view;
use rebound::engine::EngineParams;
use rebound::engine::spec::{self, Scale};
use rebound::params::ReboundParams;
use rebound::params::editor_state::{self as view, View};
use rebound::preset::{Preset, factory};

#[path = "support/host_values.rs"]
mod host_values;
use host_values::set_through_host;

// ---- Meter ----

/// The scale is linear in dB from the floor (bottom) to the top, clamped outside, and
/// every mark is on it, top first.
#[test]
fn meter_scale_maps_db_to_height() {
    assert_eq!(scale_fraction(METER_FLOOR_DB), 0.0);
    assert_eq!(scale_fraction(METER_TOP_DB), 1.0);
    let span = METER_TOP_DB - METER_FLOOR_DB;
    assert!((scale_fraction(0.0) - (0.0 - METER_FLOOR_DB) / span).abs() < 1e-6);
    assert!((scale_fraction(-6.0) - scale_fraction(-12.0) - 6.0 / span).abs() < 1e-6);
    assert_eq!(scale_fraction(-200.0), 0.0);
    assert_eq!(scale_fraction(40.0), 1.0);
    assert_eq!(scale_fraction(f32::NAN), 0.0);
    assert_eq!(scale_fraction(f32::INFINITY), 1.0);
    assert_eq!(scale_fraction(f32::NEG_INFINITY), 0.0);
    for w in SCALE_MARKS.windows(2) {
        assert!(scale_fraction(w[0]) > scale_fraction(w[1]), "{w:?}");
    }
    assert_eq!(SCALE_MARKS.first(), Some(&METER_TOP_DB));
    assert_eq!(SCALE_MARKS.last(), Some(&METER_FLOOR_DB));
    assert!(SCALE_MARKS.contains(&0.0));
}

#[test]
fn meter_figures_read_in_dbfs() {
    assert_eq!(mark_text(6.0), "+6");
    assert_eq!(mark_text(0.0), "0");
    assert_eq!(mark_text(-12.0), "\u{2212}12");
    assert_eq!(hold_text(-8.94), "\u{2212}8.9");
    assert_eq!(hold_text(2.34), "+2.3");
    assert_eq!(hold_text(METER_FLOOR_DB), "\u{2212}\u{221e}");
    assert_eq!(hold_text(f32::NAN), "\u{2212}\u{221e}");
}

// ---- Which preset is loaded ----

/// Loads `want` as the browser does (each plain value to the host's normalised value)
/// and reads it back through the engine parameters.
fn through_host(want: &EngineParams) -> EngineParams {
    let params = ReboundParams::default();
    set_through_host(&params, want);
    params.engine_params()
}

/// Every factory preset, loaded through the host, shows as itself; the defaults show as
/// the default patch.
#[test]
fn a_loaded_preset_shows_as_loaded() {
    let all = factory();
    assert!(all.len() >= 16);
    for (i, p) in all.iter().enumerate() {
        let now = through_host(&p.params);
        assert_eq!(
            loaded(all, &now, Some(&p.name)),
            Loaded::Preset(i),
            "{}",
            p.name
        );
        // A reopened session: nothing loaded in this editor yet.
        match loaded(all, &now, None) {
            Loaded::Preset(j) => assert!(same_sound(&all[j].params, &p.params), "{}", p.name),
            other => panic!("{}: {other:?}", p.name),
        }
        assert_eq!(
            loaded_text(all, Loaded::Preset(i)),
            format!("Loaded: {}", p.name)
        );
    }
    let d = through_host(&EngineParams::default());
    assert_eq!(loaded(all, &d, None), Loaded::Default);
}

/// Moving any one control of a loaded preset marks it edited: every number by 1 % of
/// its range, every choice to another option.
#[test]
fn an_edited_preset_shows_as_edited() {
    let all = factory();
    let (i, p) = all
        .iter()
        .enumerate()
        .find(|(_, p)| p.name == "Bell strike")
        .expect("the Bell strike preset");
    for n in &spec::NUMBERS {
        let mut e = p.params;
        let (lo, hi) = n.range();
        let v = (n.get)(&e);
        let step = match n.scale {
            Scale::Log => v * 0.05,
            _ => ((hi - lo) * 0.01).max(1.0_f64.min(hi - lo)),
        };
        (n.set)(&mut e, if v + step <= hi { v + step } else { v - step });
        let now = through_host(&e);
        assert_eq!(
            loaded(all, &now, Some(&p.name)),
            Loaded::Edited(i),
            "{}",
            n.id
        );
    }
    for c in &spec::CHOICES {
        let mut e = p.params;
        let k = (c.get)(&e);
        (c.set)(&mut e, if k == 0 { 1 } else { 0 });
        let now = through_host(&e);
        assert_eq!(
            loaded(all, &now, Some(&p.name)),
            Loaded::Edited(i),
            "{}",
            c.id
        );
    }
    assert_eq!(
        loaded_text(all, Loaded::Edited(i)),
        "Loaded: Bell strike (edited)"
    );
}

/// The last preset loaded wins over an identical one, and a sound that matches no
/// preset with none loaded is nobody's.
#[test]
fn the_last_loaded_of_two_identical_presets_is_shown() {
    let d = EngineParams::default();
    let mut other = d;
    other.body_freq = 523.25;
    let list = vec![
        Preset::new("a", "User", "", other),
        Preset::new("b", "User", "", other),
    ];
    assert_eq!(loaded(&list, &other, Some("b")), Loaded::Preset(1));
    assert_eq!(loaded(&list, &other, None), Loaded::Preset(0));
    assert_eq!(loaded(&list, &other, Some("gone")), Loaded::Preset(0));
    let mut mine = other;
    mine.t60 = 0.37;
    assert_eq!(loaded(&list, &mine, None), Loaded::None);
    assert_eq!(loaded(&list, &mine, Some("gone")), Loaded::None);
    assert_eq!(loaded(&list, &d, Some("a")), Loaded::Default);
}

/// The browser remembers a preset the parameters came to hold without it (a session
/// reopened on it, the host setting it): a control moved afterwards shows it edited.
#[test]
fn the_browser_shows_a_preset_set_by_the_host_edited_after_a_change() {
    let all = factory();
    let i = all.len() / 2;
    let params = ReboundParams::default();
    let mut browser = Browser::default();
    assert_eq!(browser.loaded_now(&params).1, Loaded::Default);
    set_through_host(&params, &all[i].params);
    let (list, now) = browser.loaded_now(&params);
    assert_eq!(list[i].name, all[i].name);
    assert_eq!(now, Loaded::Preset(i), "{}", all[i].name);
    let mut moved = all[i].params;
    moved.t60 = if moved.t60 > 1.0 { 0.5 } else { 2.0 };
    set_through_host(&params, &moved);
    assert_eq!(browser.loaded_now(&params).1, Loaded::Edited(i));
    set_through_host(&params, &all[i].params);
    assert_eq!(browser.loaded_now(&params).1, Loaded::Preset(i));
}

// ---- The view ----

/// The view switched to is saved with the session and restored; a session saved
/// without one, or with a value no view has, opens on Play.
#[test]
fn the_view_is_saved_with_the_session() {
    let a = ReboundParams::default();
    assert_eq!(view::get(&a.editor_view), View::Play);
    view::set(&a.editor_view, View::Physics);
    let fields = a.serialize_fields();
    assert!(fields.contains_key("editor-view"), "{fields:?}");

    let b = ReboundParams::default();
    b.deserialize_fields(&fields);
    assert_eq!(view::get(&b.editor_view), View::Physics);

    let mut old = fields.clone();
    old.remove("editor-view");
    let c = ReboundParams::default();
    c.deserialize_fields(&old);
    assert_eq!(view::get(&c.editor_view), View::Play);

    let mut bad = fields;
    bad.insert("editor-view".into(), "\"Spectrogram\"".into());
    let d = ReboundParams::default();
    d.deserialize_fields(&bad);
    assert_eq!(view::get(&d.editor_view), View::Play);
}

/// The environment opens a named view whatever was saved; anything else keeps it.
#[test]
fn the_environment_can_open_a_view() {
    assert_eq!(opening_view(View::Play, Some("physics")), View::Physics);
    assert_eq!(opening_view(View::Play, Some(" Physics ")), View::Physics);
    assert_eq!(opening_view(View::Physics, Some("PLAY")), View::Play);
    assert_eq!(opening_view(View::Physics, Some("phys")), View::Physics);
    assert_eq!(opening_view(View::Physics, Some("")), View::Physics);
    assert_eq!(opening_view(View::Play, None), View::Play);
}

// ---- The two-way strike in the Physics view ----

/// Plays one full-velocity note of `p` through the engine until its trace is
/// published and the note is over.
fn traced(p: &EngineParams) -> rebound::engine::ContactTrace {
    let fs = 48_000.0;
    let mut e = rebound::engine::Engine::new(fs);
    e.set_params(p);
    e.set_sample_rate(fs);
    e.note_on(60, 1.0, 0, None);
    let (mut l, mut r) = ([0.0f32; 256], [0.0f32; 256]);
    for _ in 0..40 {
        e.render(&mut l, &mut r);
    }
    e.last_trace().clone()
}

/// The phase view of a two-way strike draws the striker over the body's surface, and
/// the readout says how far the surface moved: on a 10 g bar the surface follows the
/// striker by a good part of its travel, the dashed compression is the difference of
/// the two lines at every point, above 0 for the samples in contact; on a 10 kg bar the
/// surface barely moves; the rigid wall draws the phase portrait as before.
#[test]
fn the_phase_view_draws_the_surface_under_the_striker() {
    use rebound::editor::plots::phase::surface_lines;
    use rebound::editor::readouts::two_way_text;
    use rebound::engine::Coupling;
    let p = |coupling, body_mass| EngineParams {
        coupling,
        body_mass,
        ..EngineParams::default()
    };
    let mut w_over_x = Vec::new();
    for mass in [0.01, 10.0] {
        let t = traced(&p(Coupling::TwoWay, mass));
        assert!(t.seq > 0 && t.two_way, "{mass} kg");
        let [x_s, w, delta] = surface_lines(&t).expect("a two-way trace draws its lines");
        assert_eq!((x_s.len(), w.len(), delta.len()), (t.len, t.len, t.len));
        for i in 0..t.len {
            assert_eq!((x_s[i][0], w[i][0]), (delta[i][0], delta[i][0]));
            assert!((x_s[i][1] - w[i][1] - delta[i][1]).abs() <= 1e-9 * x_s[i][1].abs().max(1e-9));
            assert!(i == 0 || x_s[i][0] > x_s[i - 1][0], "time runs on");
        }
        let pressed = delta[1..].iter().filter(|d| d[1] > 0.0).count() as u64;
        assert!(t.samples.abs_diff(pressed) <= 2, "{} {pressed}", t.samples);
        let max = |l: &[[f64; 2]]| l.iter().fold(0.0f64, |m, p| m.max(p[1]));
        w_over_x.push(max(&w) / max(&x_s));
        let text = two_way_text(&t);
        assert!(
            text.contains(&format!("surface w max {:.3} µm", max(&w))),
            "{text}"
        );
        assert!(
            text.contains(&format!("contact {} samples", t.samples)),
            "{text}"
        );
    }
    assert!(w_over_x[0] > 0.2, "a 10 g bar gives: {w_over_x:?}");
    assert!(w_over_x[1] < 0.01, "a 10 kg bar barely moves: {w_over_x:?}");
    let rigid = traced(&p(Coupling::Rigid, 0.01));
    assert!(rigid.seq > 0 && !rigid.two_way);
    assert!(surface_lines(&rigid).is_none());
}
