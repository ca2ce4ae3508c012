//! Offline output for `rebound render`: a PNG plot of the waveform, the force pulse and
//! the per-bounce energy drift, hand-written (a PNG with stored, uncompressed deflate
//! blocks). The WAV writer is the CLI's (hound, behind the `cli` feature).

use crate::engine::Rendered;
use std::io;
use std::path::Path;

fn crc32(chunks: &[&[u8]]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    let mut crc = 0xFFFF_FFFFu32;
    for chunk in chunks {
        for &b in *chunk {
            crc = table[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
        }
    }
    crc ^ 0xFFFF_FFFF
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &d in data {
        a = (a + d as u32) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

/// Encodes an RGB image as PNG (zlib stream of stored deflate blocks).
pub fn encode_png(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity((width as usize * 3 + 1) * height as usize);
    for row in rgb.chunks(width as usize * 3) {
        raw.push(0); // filter: none
        raw.extend_from_slice(row);
    }
    let mut z = vec![0x78, 0x01];
    let mut blocks = raw.chunks(65535).peekable();
    while let Some(block) = blocks.next() {
        z.push(if blocks.peek().is_none() { 1 } else { 0 });
        let len = block.len() as u16;
        z.extend_from_slice(&len.to_le_bytes());
        z.extend_from_slice(&(!len).to_le_bytes());
        z.extend_from_slice(block);
    }
    if raw.is_empty() {
        z.extend_from_slice(&[1, 0, 0, 0xFF, 0xFF]);
    }
    z.extend_from_slice(&adler32(&raw).to_be_bytes());
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8; 4], data: &[u8]| {
        png.extend_from_slice(&(data.len() as u32).to_be_bytes());
        png.extend_from_slice(kind);
        png.extend_from_slice(data);
        png.extend_from_slice(&crc32(&[kind, data]).to_be_bytes());
    };
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", &z);
    chunk(b"IEND", &[]);
    png
}

struct Canvas {
    w: usize,
    h: usize,
    px: Vec<u8>,
}

impl Canvas {
    fn new(w: usize, h: usize) -> Self {
        Self {
            w,
            h,
            px: vec![255; w * h * 3],
        }
    }
    fn set(&mut self, x: usize, y: usize, c: [u8; 3]) {
        if x < self.w && y < self.h {
            let i = (y * self.w + x) * 3;
            self.px[i..i + 3].copy_from_slice(&c);
        }
    }
    fn vline(&mut self, x: usize, y0: usize, y1: usize, c: [u8; 3]) {
        for y in y0.min(y1)..=y0.max(y1) {
            self.set(x, y, c);
        }
    }
    fn hline(&mut self, x0: usize, x1: usize, y: usize, c: [u8; 3]) {
        for x in x0..=x1 {
            self.set(x, y, c);
        }
    }
    /// Min/max envelope of `data` per pixel column in panel rows `top..top+height`,
    /// for values in `[lo, hi]`.
    fn envelope(&mut self, data: &[f32], top: usize, height: usize, lo: f32, hi: f32, c: [u8; 3]) {
        let grey = [200, 200, 200];
        self.hline(0, self.w - 1, top + height, grey);
        let to_y = |v: f32| {
            let f = ((v - lo) / (hi - lo)).clamp(0.0, 1.0);
            top + ((1.0 - f) * (height - 1) as f32) as usize
        };
        if lo < 0.0 && hi > 0.0 {
            let z = to_y(0.0);
            self.hline(0, self.w - 1, z, grey);
        }
        if data.is_empty() {
            return;
        }
        for x in 0..self.w {
            let a = x * data.len() / self.w;
            let b = ((x + 1) * data.len() / self.w).max(a + 1).min(data.len());
            let (mn, mx) = data[a..b]
                .iter()
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(mn, mx), v| {
                    (mn.min(*v), mx.max(*v))
                });
            self.vline(x, to_y(mn), to_y(mx), c);
        }
    }
}

/// Draws the waveform, the normalised force pulse and the per-bounce residual-energy
/// drift into a PNG.
pub fn write_plot(path: &Path, r: &Rendered) -> io::Result<()> {
    let (w, panel) = (1200usize, 260usize);
    let mut c = Canvas::new(w, 3 * panel + 40);
    let peak = r.audio.iter().fold(1e-9f32, |m, v| m.max(v.abs()));
    c.envelope(&r.audio, 10, panel - 20, -peak, peak, [30, 90, 200]);
    let fpeak = r.force.iter().fold(1e-9f32, |m, v| m.max(*v));
    c.envelope(&r.force, panel + 20, panel - 20, 0.0, fpeak, [200, 90, 30]);
    let n = r.trace.bounces;
    let drift = &r.trace.drift_pct[..n];
    let m = drift.iter().fold(1e-9f32, |m, v| m.max(v.abs()));
    let top = 2 * panel + 30;
    let h = panel - 20;
    c.hline(0, w - 1, top + h / 2, [200, 200, 200]);
    for (i, d) in drift.iter().enumerate() {
        let x0 = i * w / n.max(1);
        let x1 = ((i + 1) * w / n.max(1)).saturating_sub(2).max(x0);
        // Signed offset from the zero line (a negative drift plots below it).
        let offset = ((d / m) * (h / 2 - 2) as f32) as isize;
        let y = ((top + h / 2) as isize - offset).clamp(top as isize, (top + h) as isize) as usize;
        for x in x0..=x1 {
            c.vline(x, top + h / 2, y, [40, 160, 60]);
        }
    }
    std::fs::write(path, encode_png(w as u32, c.h as u32, &c.px))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_crc_of_iend_is_standard() {
        assert_eq!(crc32(&[b"IEND", &[]]), 0xAE42_6082);
    }
}
