//! The header of a gzip member (RFC 1952, section 2.3), read as its bytes arrive. Nothing of
//! it is kept: the file name, comment and extra field are skipped, whatever their length,
//! and the header checksum (FHCRC) is checked when there is one.

use super::crc32::Crc32;

const MAGIC: [u8; 2] = [0x1f, 0x8b];
/// CM: the only compression method gzip defines.
const DEFLATE: u8 = 8;
/// Length of the fixed part: ID1 ID2 CM FLG MTIME(4) XFL OS.
const FIXED_LEN: u8 = 10;

// FLG bits. FTEXT (bit 0) is only a hint and changes nothing here.
const FHCRC: u8 = 1 << 1;
const FEXTRA: u8 = 1 << 2;
const FNAME: u8 = 1 << 3;
const FCOMMENT: u8 = 1 << 4;
/// Bits 5 to 7 are reserved: a decoder must refuse a header with any of them set.
const RESERVED: u8 = 0b1110_0000;

/// The parts of the header, in the order they come in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Fixed,
    /// XLEN, the two-byte length of the extra field.
    ExtraLen,
    /// The extra field itself.
    Extra,
    /// The zero-terminated file name.
    Name,
    /// The zero-terminated comment.
    Comment,
    /// The two low bytes of the CRC-32 of the header so far.
    HeaderCrc,
}

/// The optional parts after the fixed one, each with the flag that announces it.
const OPTIONAL: [(u8, Part); 4] = [
    (FEXTRA, Part::ExtraLen),
    (FNAME, Part::Name),
    (FCOMMENT, Part::Comment),
    (FHCRC, Part::HeaderCrc),
];

/// A member header being read.
#[derive(Debug, Clone)]
pub(super) struct Header {
    part: Part,
    /// Bytes read of a fixed-length part (the fixed part, XLEN or the header CRC).
    at: u8,
    /// XLEN, then the extra bytes left; the header CRC as read.
    value: u16,
    flags: u8,
    crc: Crc32,
}

impl Header {
    pub fn new() -> Header {
        Header {
            part: Part::Fixed,
            at: 0,
            value: 0,
            flags: 0,
            crc: Crc32::default(),
        }
    }

    /// Reads header bytes from the start of `input`: how many it used, and whether that
    /// completed the header (the compressed data starts right after them). The error says
    /// what is wrong with the header.
    pub fn read(&mut self, input: &[u8]) -> Result<(usize, bool), &'static str> {
        for (n, &byte) in input.iter().enumerate() {
            if self.part != Part::HeaderCrc {
                self.crc.update(&[byte]);
            }
            if self.byte(byte)? {
                return Ok((n + 1, true));
            }
        }
        Ok((input.len(), false))
    }

    /// Takes one byte; true when it was the header's last.
    fn byte(&mut self, byte: u8) -> Result<bool, &'static str> {
        match self.part {
            Part::Fixed => {
                match self.at {
                    0 | 1 if byte != MAGIC[usize::from(self.at)] => {
                        return Err("not a gzip member: the magic bytes 1f 8b are missing");
                    }
                    2 if byte != DEFLATE => {
                        return Err("the compression method is not deflate (CM is not 8)");
                    }
                    3 if byte & RESERVED != 0 => {
                        return Err("reserved flag bits are set in the member header");
                    }
                    3 => self.flags = byte,
                    _ => {} // MTIME, XFL and OS tell nothing needed here.
                }
                self.at += 1;
                Ok(self.at == FIXED_LEN && self.next_after(Part::Fixed))
            }
            Part::ExtraLen => {
                self.value |= u16::from(byte) << (8 * self.at);
                self.at += 1;
                if self.at < 2 {
                    Ok(false)
                } else if self.value == 0 {
                    Ok(self.next_after(Part::ExtraLen))
                } else {
                    self.part = Part::Extra;
                    Ok(false)
                }
            }
            Part::Extra => {
                self.value = self.value.saturating_sub(1);
                Ok(self.value == 0 && self.next_after(Part::ExtraLen))
            }
            Part::Name | Part::Comment => Ok(byte == 0 && self.next_after(self.part)),
            Part::HeaderCrc => {
                self.value |= u16::from(byte) << (8 * self.at);
                self.at += 1;
                if self.at < 2 {
                    return Ok(false);
                }
                // The check value is the low 16 bits of the CRC-32 of the bytes before it.
                if u32::from(self.value) != self.crc.value() & 0xffff {
                    return Err("the header checksum (FHCRC) does not match the header");
                }
                Ok(true)
            }
        }
    }

    /// Moves to the first part after `part` that the flags announce: true when there is
    /// none, so the header is complete.
    fn next_after(&mut self, part: Part) -> bool {
        let from = OPTIONAL
            .iter()
            .position(|&(_, p)| p == part)
            .map_or(0, |i| i + 1);
        let next = OPTIONAL
            .iter()
            .skip(from)
            .find(|&&(flag, _)| self.flags & flag != 0);
        match next {
            Some(&(_, next)) => {
                self.part = next;
                self.at = 0;
                self.value = 0;
                false
            }
            None => true,
        }
    }
}
