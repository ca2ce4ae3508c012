//! The bank driven a block at a time: a voice in contact hands its chunk's drive
//! (its contact's force at each sample), and the bank runs it with its state and
//! coefficients in registers, as a ringing voice's does, instead of loading and
//! storing them every sample.

use super::{DRIVE_RUN, Driven, ModalBody, QUIET_BANK, simd};

impl ModalBody {
    /// `drive.len()` samples with the input `drive[j]` at sample `j` (`mid` and `side`
    /// at least as long): what [`tick_pickups`](Self::tick_pickups) gives sample by
    /// sample, bit for bit, the drive high-pass's samples made first (its chain does
    /// not wait on the bank) and the bank let go where the sample loop would.
    pub fn drive_pickups(&mut self, drive: &[f64], mid: &mut [f64], side: &mut [f64]) {
        let n = drive.len().min(mid.len()).min(side.len());
        if !self.active || self.damp_left > 0 || self.fade_left > 0 {
            for j in 0..n {
                (mid[j], side[j]) = self.tick_pickups(drive[j]);
            }
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if self.vector {
            // SAFETY: `vector` is only ever true where the CPU has AVX2 and FMA.
            return unsafe { self.drive_run_vex(&drive[..n], &mut mid[..n], &mut side[..n]) };
        }
        self.drive_run(&drive[..n], &mut mid[..n], &mut side[..n]);
    }

    /// [`drive_run`](Self::drive_run) compiled for AVX2 and FMA (the same bits: nothing
    /// is fused).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline(never)]
    fn drive_run_vex(&mut self, drive: &[f64], mid: &mut [f64], side: &mut [f64]) {
        self.drive_run(drive, mid, side)
    }

    #[inline(always)]
    fn drive_run(&mut self, drive: &[f64], mid: &mut [f64], side: &mut [f64]) {
        let mut u = [0.0; DRIVE_RUN];
        let runs = drive.chunks(DRIVE_RUN).zip(mid.chunks_mut(DRIVE_RUN));
        for ((x, mid), side) in runs.zip(side.chunks_mut(DRIVE_RUN)) {
            let u = &mut u[..x.len()];
            for (u, &x) in u.iter_mut().zip(x) {
                let y = self.drive.tick(x);
                // As `tick_with`: an input far below anything audible is none.
                *u = if y.abs() < QUIET_BANK { 0.0 } else { y };
            }
            // The bank in runs, each up to a sample after which the sample loop would
            // let quiet modes go (its count of samples with no input ran out).
            let mut from = 0;
            for j in 0..u.len() {
                if u[j] != 0.0 {
                    continue;
                }
                self.quiet_in -= 1;
                if self.quiet_in == 0 {
                    self.ring_driven(&u[from..=j], &mut mid[from..=j], &mut side[from..=j]);
                    self.let_go_if_quiet();
                    from = j + 1;
                }
            }
            let n = u.len();
            self.ring_driven(&u[from..], &mut mid[from..n], &mut side[from..n]);
        }
    }

    /// The bank's run over `u.len()` samples of input `u`.
    #[inline(always)]
    fn ring_driven(&mut self, u: &[f64], mid: &mut [f64], side: &mut [f64]) {
        let (re, im, k) = (&mut self.re, &mut self.im, &self.k);
        simd::ring(self.vector, re, im, k, &mut Driven(u.iter()), mid, side);
    }
}
