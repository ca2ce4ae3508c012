//! The least plugin nice-plug builds: 64 plain parameters, no editor, MIDI CCs in,
//! silence. Run under a host's tests beside Rebound, whatever it prints or does is the
//! framework's (see `docs/hosts.md`, "Validators").

use nice_plug::prelude::*;
use std::num::NonZeroU32;
use std::sync::Arc;

/// Parameters as many as Rebound has, about 64: one, and 63 more in an array.
#[derive(Params)]
struct MinimalParams {
    #[id = "level"]
    level: FloatParam,
    #[nested(array, group = "Extra")]
    extra: [Extra; 63],
}

#[derive(Params)]
struct Extra {
    #[id = "extra"]
    value: FloatParam,
}

struct Minimal {
    params: Arc<MinimalParams>,
}

impl Default for Minimal {
    fn default() -> Self {
        let level = FloatParam::new("Level", 0.5, FloatRange::Linear { min: 0.0, max: 1.0 });
        Self {
            params: Arc::new(MinimalParams {
                level,
                extra: std::array::from_fn(|_| Extra {
                    value: FloatParam::new("Extra", 0.5, FloatRange::Linear { min: 0.0, max: 1.0 }),
                }),
            }),
        }
    }
}

impl Plugin for Minimal {
    const NAME: &'static str = "Minimal";
    const VENDOR: &'static str = "Rebound";
    const URL: &'static str = "https://example.invalid/minimal";
    const EMAIL: &'static str = "minimal@example.invalid";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const AUDIO_IO_LAYOUTS: &'static [AudioIOLayout] = &[AudioIOLayout {
        main_input_channels: None,
        main_output_channels: NonZeroU32::new(2),
        ..AudioIOLayout::const_default()
    }];
    /// As Rebound's: the VST3 wrapper then adds its 16 × 130 stand-in parameters for
    /// MIDI CCs, pressure and pitch bend.
    const MIDI_INPUT: MidiConfig = MidiConfig::MidiCCs;

    type Editor = ();
    type SysExMessage = ();
    type BackgroundTask = ();

    fn params(&self) -> Arc<dyn Params> {
        self.params.clone()
    }

    fn process(
        &mut self,
        buffer: &mut Buffer,
        _aux: &mut AuxiliaryBuffers,
        _context: &mut impl ProcessContext<Self>,
    ) -> ProcessStatus {
        for channel in buffer.as_slice() {
            channel.fill(0.0);
        }
        ProcessStatus::Normal
    }
}

impl Vst3Plugin for Minimal {
    const VST3_CLASS_ID: [u8; 16] = *b"ReboundMinimal01";
    const VST3_SUBCATEGORIES: &'static [Vst3SubCategory] =
        &[Vst3SubCategory::Instrument, Vst3SubCategory::Synth];
}

nice_export_vst3!(Minimal);
