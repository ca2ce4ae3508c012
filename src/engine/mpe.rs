//! MPE zones (MIDI-CA RP-053): which channels are members of a zone and which is its
//! master, from the MPE Configuration Message (RPN 6 on channel 1 or 16; its data
//! entry is the zone's number of member channels). A zone's master channel speaks for
//! the whole zone: its pitch bend bends every note of the zone (by
//! [`MASTER_BEND_RANGE`], on top of each note's own channel bend). Without a
//! configuration there are no zones and every channel is on its own, as before MPE.
//! Framework-free, allocation-free.

/// The zone-wide bend range of a master channel, semitones (RP-053's default).
pub const MASTER_BEND_RANGE: f64 = 2.0;
/// The controllers of a Registered Parameter Number and its data entry.
const CC_RPN_MSB: u8 = 101;
const CC_RPN_LSB: u8 = 100;
const CC_DATA_ENTRY: u8 = 6;
/// RPN 6 is the MPE Configuration Message.
const RPN_MCM: (u8, u8) = (0, 6);
/// A null RPN: data entry changes nothing.
const RPN_NULL: (u8, u8) = (127, 127);

/// The two zones and the RPN each channel has selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zones {
    rpn: [(u8, u8); 16],
    /// Member channels of the lower zone (master channel index 0, members 1..=n).
    lower: u8,
    /// Member channels of the upper zone (master 15, members 15 − m..=14).
    upper: u8,
}

impl Default for Zones {
    fn default() -> Self {
        Self {
            rpn: [RPN_NULL; 16],
            lower: 0,
            upper: 0,
        }
    }
}

/// A zone: the lower (master channel 1) or the upper (master channel 16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    Lower,
    Upper,
}

impl Zone {
    pub fn index(self) -> usize {
        self as usize
    }
}

impl Zones {
    /// Follows a control change (7-bit `value`) on `channel` (0–15); true when it was
    /// an MPE Configuration Message that set a zone. A zone that would overlap the
    /// other shrinks the other, as RP-053 says.
    pub fn control_change(&mut self, channel: u8, cc: u8, value: u8) -> bool {
        let ch = channel as usize % 16;
        match cc {
            CC_RPN_MSB => self.rpn[ch].0 = value,
            CC_RPN_LSB => self.rpn[ch].1 = value,
            CC_DATA_ENTRY if self.rpn[ch] == RPN_MCM => {
                let n = value.min(15);
                match ch {
                    0 => {
                        self.lower = n;
                        self.upper = self.upper.min(14u8.saturating_sub(n));
                    }
                    15 => {
                        self.upper = n;
                        self.lower = self.lower.min(14u8.saturating_sub(n));
                    }
                    _ => return false,
                }
                return true;
            }
            _ => {}
        }
        false
    }

    /// The zone whose master channel `channel` is, if it is one.
    pub fn master(&self, channel: u8) -> Option<Zone> {
        match channel {
            0 if self.lower > 0 => Some(Zone::Lower),
            15 if self.upper > 0 => Some(Zone::Upper),
            _ => None,
        }
    }

    /// The zone `channel` belongs to (as a member or as its master), if any.
    pub fn zone_of(&self, channel: u8) -> Option<Zone> {
        let ch = channel % 16;
        if self.lower > 0 && ch <= self.lower {
            Some(Zone::Lower)
        } else if self.upper > 0 && ch >= 15 - self.upper {
            Some(Zone::Upper)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mcm(z: &mut Zones, channel: u8, members: u8) -> bool {
        z.control_change(channel, CC_RPN_MSB, 0);
        z.control_change(channel, CC_RPN_LSB, 6);
        z.control_change(channel, CC_DATA_ENTRY, members)
    }

    #[test]
    fn no_configuration_no_zones() {
        let z = Zones::default();
        assert!((0..16).all(|c| z.zone_of(c).is_none() && z.master(c).is_none()));
    }

    #[test]
    fn the_configuration_message_sets_and_shrinks_zones() {
        let mut z = Zones::default();
        assert!(mcm(&mut z, 0, 15));
        assert_eq!(z.master(0), Some(Zone::Lower));
        assert!((0..16).all(|c| z.zone_of(c) == Some(Zone::Lower)));
        // An upper zone of 3 members takes channels 12–15 (indices) from the lower.
        assert!(mcm(&mut z, 15, 3));
        assert_eq!((z.lower, z.upper), (11, 3));
        assert_eq!(z.zone_of(11), Some(Zone::Lower));
        assert_eq!(z.zone_of(12), Some(Zone::Upper));
        assert_eq!(z.master(15), Some(Zone::Upper));
        // Zone off.
        assert!(mcm(&mut z, 0, 0));
        assert_eq!(z.zone_of(5), None);
        assert_eq!(z.master(0), None);
    }

    #[test]
    fn data_entry_for_another_rpn_or_channel_changes_nothing() {
        let mut z = Zones::default();
        // RPN 0 (bend sensitivity) on the master channel.
        z.control_change(0, CC_RPN_MSB, 0);
        z.control_change(0, CC_RPN_LSB, 0);
        assert!(!z.control_change(0, CC_DATA_ENTRY, 12));
        // RPN 6 on a channel that is neither 1 nor 16.
        assert!(!mcm(&mut z, 4, 8));
        assert_eq!(
            z,
            Zones {
                rpn: z.rpn,
                ..Zones::default()
            }
        );
    }
}
