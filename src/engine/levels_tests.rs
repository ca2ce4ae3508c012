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
