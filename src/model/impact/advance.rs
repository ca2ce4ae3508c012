//! One sample of a contact: the method's steps, the exit clock, the guards. Most
//! samples take one step that starts on the sample (`advance_one`); the general loop
//! covers sub-steps and an onset inside the sample with the same arithmetic.

use super::*;

impl Impact {
    /// Advances one sample (`substeps` steps of the method). Returns whether the mass
    /// is still in contact afterwards.
    #[inline(always)]
    pub fn step(&mut self) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.vex {
            // SAFETY: `vex` is only true where the CPU has AVX2 and FMA (`dispatch::vector_path`).
            return unsafe { self.step_vex() };
        }
        self.step_scalar()
    }

    /// [`step`](Self::step) in line in its caller, compiled for whatever the caller is:
    /// for a sample loop compiled for its path (a voice's, `Voice::run`), which
    /// then runs the step with no call and, on the vector path, the three-operand forms.
    #[inline(always)]
    pub fn step_here(&mut self) -> bool {
        self.step_body()
    }

    /// [`step`](Self::step) compiled for AVX2. No operation is fused (Rust never
    /// contracts `a·b + c`), so it gives the baseline's bits: the three-operand forms
    /// save the register copies.
    #[cfg(target_arch = "x86_64")]
    #[inline(never)]
    #[target_feature(enable = "avx2,fma")]
    fn step_vex(&mut self) -> bool {
        self.step_body()
    }

    /// [`step`](Self::step) for the baseline instruction set.
    #[inline(never)]
    fn step_scalar(&mut self) -> bool {
        self.step_body()
    }

    #[inline(always)]
    fn step_body(&mut self) -> bool {
        if !self.in_contact {
            return false;
        }
        self.n += 1;
        if self.closed_form {
            self.exit_frac = 1.0;
            if self.load.exit.is_some_and(|e| e.sticks) {
                self.rest();
            } else {
                self.end(self.v_target, false);
            }
            return false;
        }
        if self.damped {
            return self.advance_damped();
        }
        if self.substeps == 1 && self.n > 1 {
            return self.advance_one();
        }
        self.advance_split::<false>()
    }

    /// A sample of a contact taken by the damping-exact step (rare: out of line).
    #[cold]
    #[inline(never)]
    fn advance_damped(&mut self) -> bool {
        self.advance_split::<true>()
    }

    /// One step from the sample's start to its end: [`advance_split`](Self::advance_split)
    /// at one sub-step and no onset inside the sample, whose instants `n − 1 + 0 + 1·(0 +
    /// θ)/1` are `n − 1 + θ` exactly.
    #[inline(always)]
    fn advance_one(&mut self) -> bool {
        let v0 = self.v;
        let ok = self.substep();
        // The sample's start, in samples, only where an instant is dated.
        let start = |n: u64| (n - 1) as f64;
        if self.clock_may_move() {
            self.tick_clock(v0, start, self.h * self.sample_rate());
        }
        if !ok {
            self.exit_at(start(self.n) + self.theta);
            return false;
        }
        self.after_sample()
    }

    /// The sample in `substeps` steps, its first only from the onset's instant on.
    #[inline(always)]
    fn advance_split<const DAMPED: bool>(&mut self) -> bool {
        let base = if self.n == 1 { self.start } else { 0.0 };
        let (h, h_m) = (self.h, self.h_m);
        if base > 0.0 {
            // The onset fell inside this sample: only its rest is in contact.
            self.h *= 1.0 - base;
            self.h_m *= 1.0 - base;
        }
        let mut still = true;
        // Samples since the contact's first sample began, at substep i + θ.
        let at = |n: u64, i: u32, theta: f64, substeps: u32| {
            (n - 1) as f64 + base + (1.0 - base) * (i as f64 + theta) / substeps as f64
        };
        for i in 0..self.substeps {
            let v0 = self.v;
            let ok = self.substep_on::<DAMPED>();
            // The clock's instants only where it has something to do.
            if self.clock_may_move() {
                let substeps = self.substeps;
                self.tick_clock(v0, |n| at(n, i, 0.0, substeps), self.h * self.sample_rate());
            }
            if !ok {
                self.exit_at(at(self.n, i, self.theta, self.substeps));
                still = false;
                break;
            }
        }
        self.h = h;
        self.h_m = h_m;
        if !still {
            return false;
        }
        self.after_sample()
    }

    /// The contact ended at `t_exit` (samples since its first sample began) by the
    /// method's own crossing; the exit clock dates it where it runs.
    #[inline(always)]
    fn exit_at(&mut self, mut t_exit: f64) {
        if self.clock_x.is_finite() {
            t_exit = if self.clock_t.is_finite() {
                self.clock_t
            } else if self.v < 0.0 {
                // The curve ended first: the clock has this far to go at v_out.
                t_exit + self.clock_x / (-self.v) * self.sample_rate()
            } else {
                t_exit
            };
        }
        self.exit_frac = t_exit - (self.n - 1) as f64;
    }

    /// After a sample still in contact: a trapped mass that has settled (or, taken by
    /// the damping-exact step, creeps on its slow manifold) rests, and a contact past its
    /// guard's bound ends.
    #[inline(always)]
    fn after_sample(&mut self) -> bool {
        if self.load.trapped {
            let spent = self.work() > self.trap_work + TRAPPED_WORK;
            if spent || (self.damped && self.creeps()) {
                self.rest_quietly(spent);
                return false;
            }
            if self.load.settled(&self.an.contact, self.x, self.v) {
                self.rest();
                return false;
            }
        }
        if self.n >= self.max_samples {
            self.exit_frac = 1.0;
            if self.load.trapped || self.load.exit.is_some_and(|e| e.sticks) {
                self.rest();
            } else {
                self.end(self.v_target, true);
            }
            return false;
        }
        true
    }

    /// A damped contact's trapped mass creeps on its slow manifold (`Loaded::creeps`):
    /// asked before `settled`, whose `powf` a sample it then saves.
    #[cold]
    fn creeps(&self) -> bool {
        let c = self.an.contact;
        self.load.creeps(&c, self.carried_pow(&c, self.x), self.v)
    }
}
