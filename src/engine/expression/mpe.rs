//! MPE zones (MIDI-CA RP-053): which channels are members of a zone and which is its
//! master, from the MPE Configuration Message (RPN 6 on channel 1 or 16; its data
//! entry is the zone's number of member channels). A zone's master channel speaks for
//! the whole zone: its pitch bend bends every note of the zone, on top of each note's
//! own channel bend, its channel pressure damps every note (the larger of it and the
//! note's own pressure acting) and its CC 74 (timbre) adds its offset to each note's. Each zone has two pitch-bend sensitivities, which the
//! configuration message sets to RP-053's defaults (±48 semitones on the members, ±2
//! on the master) and RPN 0 then changes: on the master channel the master's, on any
//! member channel every member's (one sensitivity per zone, as RP-053 requires).
//! Without a configuration there are no zones and every channel is on its own, bent by
//! the Bend range parameter, as before MPE. Framework-free, allocation-free.

/// The bend range of a zone's master channel after a configuration message,
/// semitones (RP-053).
pub const MASTER_BEND_RANGE: f64 = 2.0;
/// The bend range of a zone's member channels after a configuration message,
/// semitones (RP-053).
pub const MEMBER_BEND_RANGE: f64 = 48.0;
/// The largest bend range RPN 0 sets in a zone, semitones (RP-053's limit).
pub const MAX_BEND_RANGE: f64 = 96.0;
/// The controllers of a Registered Parameter Number and its data entry.
const CC_RPN_MSB: u8 = 101;
const CC_RPN_LSB: u8 = 100;
const CC_DATA_ENTRY: u8 = 6;
const CC_DATA_ENTRY_LSB: u8 = 38;
/// Selecting a Non-Registered Parameter Number: data entry then goes to it, not to the
/// last RPN.
const CC_NRPN_MSB: u8 = 99;
const CC_NRPN_LSB: u8 = 98;
/// RPN 0 is Pitch Bend Sensitivity (data entry: semitones, then cents).
const RPN_BEND_RANGE: (u8, u8) = (0, 0);
/// RPN 6 is the MPE Configuration Message.
const RPN_MCM: (u8, u8) = (0, 6);
/// A null RPN: data entry changes nothing.
const RPN_NULL: (u8, u8) = (127, 127);

/// A zone's pitch-bend sensitivities, semitones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BendRanges {
    /// Of every member channel's own bend.
    pub member: f64,
    /// Of the master channel's bend, which bends the whole zone.
    pub master: f64,
}

impl Default for BendRanges {
    fn default() -> Self {
        Self {
            member: MEMBER_BEND_RANGE,
            master: MASTER_BEND_RANGE,
        }
    }
}

/// What a control change did to the zones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneChange {
    /// Nothing: not an RPN the zones follow (the caller handles the controller).
    None,
    /// RPN selection, or a data entry that moved nothing the voices hear.
    Selected,
    /// A configuration message set the zones (and reset their bend ranges).
    Zones,
    /// RPN 0 changed a zone's bend range.
    BendRange,
}

/// The two zones, their bend ranges and the RPN each channel has selected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Zones {
    rpn: [(u8, u8); 16],
    /// Member channels of the lower zone (master channel index 0, members 1..=n).
    lower: u8,
    /// Member channels of the upper zone (master 15, members 15 − m..=14).
    upper: u8,
    /// Lower, upper.
    ranges: [BendRanges; 2],
}

impl Default for Zones {
    fn default() -> Self {
        Self {
            rpn: [RPN_NULL; 16],
            lower: 0,
            upper: 0,
            ranges: [BendRanges::default(); 2],
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
    /// Both, in the order of [`index`](Self::index).
    pub const ALL: [Zone; 2] = [Zone::Lower, Zone::Upper];

    pub fn index(self) -> usize {
        self as usize
    }

    /// Its master channel's index: channel 1 or 16.
    pub fn master_channel(self) -> u8 {
        match self {
            Zone::Lower => 0,
            Zone::Upper => 15,
        }
    }
}

impl Zones {
    /// Follows a control change (7-bit `value`) on `channel` (0–15). A zone that would
    /// overlap the other shrinks the other, as RP-053 says.
    pub fn control_change(&mut self, channel: u8, cc: u8, value: u8) -> ZoneChange {
        let ch = channel as usize % 16;
        match cc {
            CC_RPN_MSB => self.rpn[ch].0 = value,
            CC_RPN_LSB => self.rpn[ch].1 = value,
            CC_NRPN_MSB | CC_NRPN_LSB => self.rpn[ch] = RPN_NULL,
            CC_DATA_ENTRY if self.rpn[ch] == RPN_MCM => return self.configure(ch, value),
            CC_DATA_ENTRY | CC_DATA_ENTRY_LSB if self.rpn[ch] == RPN_BEND_RANGE => {
                let Some(range) = self.range_of(ch as u8) else {
                    return ZoneChange::Selected;
                };
                *range = if cc == CC_DATA_ENTRY {
                    // Whole semitones; the cents start over.
                    value as f64
                } else {
                    range.floor() + value.min(99) as f64 / 100.0
                }
                .min(MAX_BEND_RANGE);
                return ZoneChange::BendRange;
            }
            _ => return ZoneChange::None,
        }
        ZoneChange::Selected
    }

    /// The configuration message on channel index `ch` for `n` members.
    fn configure(&mut self, ch: usize, n: u8) -> ZoneChange {
        let n = n.min(15);
        match ch {
            0 => {
                self.lower = n;
                self.upper = self.upper.min(14u8.saturating_sub(n));
            }
            15 => {
                self.upper = n;
                self.lower = self.lower.min(14u8.saturating_sub(n));
            }
            _ => return ZoneChange::Selected,
        }
        self.ranges = [BendRanges::default(); 2];
        ZoneChange::Zones
    }

    /// The bend range RPN 0 on `channel` sets: its zone's master's on the master
    /// channel, its members' on a member channel; none outside the zones.
    fn range_of(&mut self, channel: u8) -> Option<&mut f64> {
        let zone = self.zone_of(channel)?;
        let is_master = self.master(channel) == Some(zone);
        let r = &mut self.ranges[zone.index()];
        Some(if is_master {
            &mut r.master
        } else {
            &mut r.member
        })
    }

    /// The bend ranges of the zone `channel` belongs to, if any.
    pub fn ranges_of(&self, channel: u8) -> Option<BendRanges> {
        self.zone_of(channel).map(|z| self.ranges[z.index()])
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
        z.control_change(channel, CC_DATA_ENTRY, members) == ZoneChange::Zones
    }

    /// RPN 0 on `channel`: `semitones`, then `cents` when given.
    fn bend_range(z: &mut Zones, channel: u8, semitones: u8, cents: Option<u8>) -> ZoneChange {
        z.control_change(channel, CC_RPN_MSB, 0);
        z.control_change(channel, CC_RPN_LSB, 0);
        let c = z.control_change(channel, CC_DATA_ENTRY, semitones);
        match cents {
            Some(cents) => z.control_change(channel, CC_DATA_ENTRY_LSB, cents),
            None => c,
        }
    }

    #[test]
    fn rpn_0_sets_a_zones_bend_ranges_and_the_configuration_resets_them() {
        let mut z = Zones::default();
        // Outside a zone RPN 0 is left to the Bend range parameter.
        assert_eq!(bend_range(&mut z, 3, 12, None), ZoneChange::Selected);
        assert_eq!(z.ranges_of(3), None);
        assert!(mcm(&mut z, 0, 7));
        assert_eq!(z.ranges_of(3), Some(BendRanges::default()));
        // On one member: every member of the zone (the master keeps its own).
        assert_eq!(bend_range(&mut z, 3, 24, None), ZoneChange::BendRange);
        assert_eq!(
            z.ranges_of(7).map(|r| (r.member, r.master)),
            Some((24.0, 2.0))
        );
        // On the master: the master's, with cents from the data entry LSB.
        assert_eq!(bend_range(&mut z, 0, 1, Some(50)), ZoneChange::BendRange);
        assert_eq!(
            z.ranges_of(1).map(|r| (r.member, r.master)),
            Some((24.0, 1.5))
        );
        // Data entry after an NRPN was selected is the NRPN's, not RPN 0's.
        z.control_change(5, CC_RPN_MSB, 0);
        z.control_change(5, CC_RPN_LSB, 0);
        z.control_change(5, CC_NRPN_MSB, 1);
        z.control_change(5, CC_DATA_ENTRY, 60);
        assert_eq!(z.ranges_of(5).unwrap().member, 24.0);
        // Past RP-053's limit: held at it.
        bend_range(&mut z, 2, 127, Some(99));
        assert_eq!(z.ranges_of(2).unwrap().member, MAX_BEND_RANGE);
        // The upper zone is its own, and a configuration message resets both.
        assert!(mcm(&mut z, 15, 3));
        assert_eq!(z.ranges_of(13), Some(BendRanges::default()));
        assert_eq!(z.ranges_of(2), Some(BendRanges::default()));
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
        assert_eq!(z.control_change(0, CC_DATA_ENTRY, 12), ZoneChange::Selected);
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
