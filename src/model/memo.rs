//! The last value a thread made, kept for its next ask with the same key.
//!
//! Each thread has its own copy (the audio thread's and the level worker's are apart,
//! so neither waits on nor disturbs the other), and it is a pure memo: the value is the
//! one made anew, so a render is the same whatever was asked before. The keys are
//! compared bit for bit (`f64::to_bits` for numbers), as a recomputation would see them.

use std::cell::Cell;
use std::thread::LocalKey;

/// One thread's last key and the value made for it: declared by each user as
/// `thread_local! { static LAST: Last<K, V> = const { Last::new(None) }; }`.
pub type Last<K, V> = Cell<Option<(K, V)>>;

/// The value `last` holds for `key`, else `make()`, then kept for the next ask.
#[inline]
pub fn remembered<K: Copy + PartialEq, V: Copy>(
    last: &'static LocalKey<Last<K, V>>,
    key: K,
    make: impl FnOnce() -> V,
) -> V {
    last.with(|last| match last.get() {
        Some((k, v)) if k == key => v,
        _ => {
            let v = make();
            last.set(Some((key, v)));
            v
        }
    })
}
