//! The capture of the last note's output for the waveform and spectrum plots. The audio
//! thread ([`Recorder`]) copies the output from the sample a note starts into a fixed
//! buffer and publishes it through a triple buffer after every block, so the GUI reads
//! the newest state lock-free while the note is still being recorded. All memory is
//! allocated in [`Recorder::new`].

/// Samples captured per note (0.68 s at 48 kHz).
pub const CAPTURE_LEN: usize = 32768;

/// The last note's output, as the GUI reads it.
#[derive(Clone, Debug)]
pub struct Capture {
    /// Counts the notes captured (0: none yet).
    pub seq: u64,
    pub fs: f64,
    /// Samples recorded so far (up to [`CAPTURE_LEN`]).
    pub len: usize,
    /// The mid signal `(L + R)/2`; only `..len` is meaningful.
    pub samples: Vec<f32>,
}

impl Default for Capture {
    fn default() -> Self {
        Self {
            seq: 0,
            fs: 48000.0,
            len: 0,
            samples: vec![0.0; CAPTURE_LEN],
        }
    }
}

impl Capture {
    /// The recorded part.
    pub fn recorded(&self) -> &[f32] {
        &self.samples[..self.len.min(self.samples.len())]
    }
}

/// The audio thread's end.
pub struct Recorder {
    input: triple_buffer::Input<Capture>,
    work: Vec<f32>,
    filled: usize,
    recording: bool,
    /// A note started at this sample of the current block.
    armed: Option<usize>,
    seq: u64,
    fs: f64,
}

impl Recorder {
    /// The recorder and the GUI's end.
    pub fn new() -> (Self, triple_buffer::Output<Capture>) {
        let (input, output) = triple_buffer::triple_buffer(&Capture::default());
        (
            Self {
                input,
                work: vec![0.0; CAPTURE_LEN],
                filled: 0,
                recording: false,
                armed: None,
                seq: 0,
                fs: 48000.0,
            },
            output,
        )
    }

    pub fn set_sample_rate(&mut self, fs: f64) {
        self.fs = fs;
    }

    /// A note starts at sample `offset` of the current block: the capture restarts there
    /// (the last note of a block wins).
    pub fn arm(&mut self, offset: usize) {
        self.armed = Some(offset);
    }

    /// Records the block just rendered (its channels, equal lengths) and publishes.
    pub fn feed(&mut self, channels: &[&mut [f32]]) {
        let n = channels.first().map_or(0, |c| c.len());
        let start = match self.armed.take() {
            Some(offset) => {
                self.seq += 1;
                self.filled = 0;
                self.recording = true;
                offset.min(n)
            }
            None => 0,
        };
        if !self.recording || channels.is_empty() {
            return;
        }
        let take = (CAPTURE_LEN - self.filled).min(n - start);
        let scale = 1.0 / channels.len() as f32;
        for (i, w) in self.work[self.filled..self.filled + take]
            .iter_mut()
            .enumerate()
        {
            *w = channels.iter().map(|c| c[start + i]).sum::<f32>() * scale;
        }
        self.filled += take;
        let out = self.input.input_buffer_mut();
        out.seq = self.seq;
        out.fs = self.fs;
        out.len = self.filled;
        out.samples[..self.filled].copy_from_slice(&self.work[..self.filled]);
        self.input.publish();
        if self.filled == CAPTURE_LEN {
            self.recording = false;
        }
    }
}
