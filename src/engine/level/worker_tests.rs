use super::*;

/// Wanted slots are taken in turn round the slots, not lowest first: a low slot
/// asked for again after it was taken waits for a high one asked for before.
#[test]
fn wanted_slots_are_taken_in_turn() {
    let w = Wanted::default();
    let want = |k: usize| {
        let mut bits = [0u64; WORDS];
        bits[k / 64] |= 1 << (k % 64);
        w.want_all(&bits);
    };
    let (low, mid, high) = (3, 64, SLOTS - 1);
    want(low);
    want(high);
    assert_eq!(w.take(0), Some(low));
    want(low);
    assert_eq!(
        w.take(low + 1),
        Some(high),
        "the high slot asked first waits"
    );
    assert_eq!(
        w.take(high + 1),
        Some(low),
        "round the slots, back to the start"
    );
    want(mid);
    want(low);
    // From inside a word: its later bits, the words after, then its earlier bits.
    assert_eq!(w.take(low + 1), Some(mid));
    assert_eq!(w.take(mid + 1), Some(low));
    assert_eq!(w.take(0), None);
}

/// Waits (at most a minute) until the worker has made every entry of the patch now.
fn wait_complete(levels: &mut crate::engine::level::Levels) {
    let t = std::time::Instant::now();
    while !levels.is_complete() {
        assert!(
            t.elapsed().as_secs() < 60,
            "the worker never finished the table"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// An idle worker parks instead of polling, and a patch handed over wakes it: with
/// the old 2 ms poll its loop went round ~50 times in the 100 ms it is watched here.
#[test]
fn an_idle_worker_sleeps_until_handed_work() {
    use crate::engine::level::Levels;
    let (worker, link) = LevelWorker::spawn().expect("the worker starts");
    let mut levels = Levels::on_demand(48_000.0);
    levels.use_worker(link);
    wait_complete(&mut levels);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let r = worker.rounds();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let idle = worker.rounds() - r;
    assert!(
        idle <= 1,
        "an idle worker went round {idle} times in 100 ms"
    );
    let p = EngineParams {
        brightness: 0.2,
        ..EngineParams::default()
    };
    levels.set(&p, 48_000.0);
    assert!(!levels.is_complete(), "a new patch's table is not made yet");
    wait_complete(&mut levels);
}

/// A thread the system cannot start is an error for the caller to report, not a
/// worker that silently never runs.
#[test]
fn a_failed_spawn_is_an_error() {
    let huge = std::thread::Builder::new().stack_size(1 << 50);
    assert!(LevelWorker::spawn_with(huge).is_err());
}

/// After a patch change the worker makes what notes asked for, then what notes have
/// played (the keys a sound designer keeps striking while turning a knob), and only
/// then the keys outward from middle C.
#[test]
fn played_slots_come_after_wanted_ones_and_before_the_rest() {
    let mut table = Box::<LevelTable>::default();
    table.retarget(&EngineParams::default(), 48_000.0);
    let sets = Sets::default();
    let mark = |set: &Wanted, k: usize| {
        let mut bits = [0u64; WORDS];
        bits[k / 64] |= 1 << (k % 64);
        set.want_all(&bits);
    };
    let mut cursor = 0;
    assert_eq!(next_slot(&table, &sets, &mut cursor), Some(60));
    mark(&sets.played, 97);
    mark(&sets.played, SLOTS - 1);
    assert_eq!(next_slot(&table, &sets, &mut cursor), Some(97));
    mark(&sets.wanted, 5);
    assert_eq!(next_slot(&table, &sets, &mut cursor), Some(5));
    // Played slots stay played: the next patch makes them first again.
    assert_eq!(next_slot(&table, &sets, &mut cursor), Some(97));
    assert_eq!(sets.played.iter().collect::<Vec<_>>(), [97, SLOTS - 1]);
}
