//! The factory presets: the files in `presets/`, compiled in so the plugin has them
//! without any installation. A test checks this list against the folder.

use super::Preset;
use std::sync::OnceLock;

macro_rules! files {
    ($($f:literal),* $(,)?) => {
        [$(($f, include_str!(concat!("../../presets/", $f)))),*]
    };
}

/// Every factory preset file: its name in `presets/` and its text.
pub const FACTORY_FILES: [(&str, &str); 28] = files![
    "bare-contact-click.json",
    "bell-strike.json",
    "bouncing-bell.json",
    "brass-hammer-on-a-glockenspiel.json",
    "coin-dropped-on-stone.json",
    "dry-leaves-underfoot.json",
    "felt-on-a-membrane.json",
    "fingertip-on-a-drum.json",
    "glass-tap.json",
    "hammer-on-a-thin-bar.json",
    "hard-rubber-ball-on-floorboards.json",
    "knuckle-on-a-door.json",
    "loose-nut-on-a-thin-plate.json",
    "mallet-on-a-wood-bar.json",
    "marble-on-glass.json",
    "marble-rolling-on-a-wooden-table.json",
    "paper-crushed-in-the-hand.json",
    "pebble-dropped-on-a-wood-floor.json",
    "ping-pong-ball-on-a-table.json",
    "rattle-in-a-wooden-box.json",
    "recorded-wine-glass.json",
    "rice-on-a-drumhead.json",
    "soft-mallet-on-a-metal-bar.json",
    "spoon-dropped-on-a-tile.json",
    "spoon-scraped-across-a-plate.json",
    "steel-ball-on-a-plate.json",
    "steel-ball-rolling-in-a-metal-tray.json",
    "stick-dragged-along-a-plank.json",
];

/// The factory presets, in category order (Bounce, Mallet, Drop, Tap, Texture, then
/// any other) and by name within one. Read once; a file that does not read is left out
/// (the tests read every one, so none is).
pub fn factory() -> &'static [Preset] {
    static FACTORY: OnceLock<Vec<Preset>> = OnceLock::new();
    FACTORY.get_or_init(|| {
        let mut all: Vec<Preset> = FACTORY_FILES
            .iter()
            .filter_map(|(_, text)| Preset::from_json(text).ok())
            .collect();
        all.sort_by_key(|p| (category_rank(&p.category), p.name.to_lowercase()));
        all
    })
}

/// The factory categories, in the order a browser lists them.
pub const CATEGORIES: [&str; 5] = ["Bounce", "Mallet", "Drop", "Tap", "Texture"];

fn category_rank(c: &str) -> usize {
    CATEGORIES
        .iter()
        .position(|x| x.eq_ignore_ascii_case(c))
        .unwrap_or(CATEGORIES.len())
}
