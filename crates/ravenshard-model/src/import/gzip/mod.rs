//! gzip (RFC 1952) decoded as its chunks arrive: member headers are read byte by byte, the
//! deflate data is inflated with `miniz_oxide` and handed on in pieces of at most
//! [`OUT_LEN`] bytes (so memory stays flat whatever the compression ratio), and each
//! member's trailer is checked against the CRC-32 and length of what was inflated.
//!
//! * Members may follow one another (multi-member files, as pigz and `cat a.gz b.gz`
//!   write): their data is concatenated.
//! * Zero bytes after the last member are ignored (tape and block devices pad files so;
//!   gzip(1) accepts them with a warning). Anything else after a member that is not
//!   another member is an error.
//! * A file that ends inside a member's header or compressed data is
//!   [`ImportError::GzipTruncated`]; one that ends inside the 8-byte trailer, where the
//!   checksum is, is [`ImportError::Gzip`], as are a bad header, invalid deflate data and a
//!   checksum or length that does not match.

mod crc32;
mod header;

use super::ImportError;
use crc32::Crc32;
use header::Header;
use miniz_oxide::inflate::stream::{inflate, InflateState};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};
use std::fmt;

/// The most decompressed bytes handed on at once.
const OUT_LEN: usize = 32 << 10;
/// CRC32 and ISIZE, four bytes each, little-endian.
const TRAILER_LEN: usize = 8;
/// The first byte of every member.
const ID1: u8 = 0x1f;

/// Where in the file the decoder is.
#[derive(Debug, Clone)]
enum State {
    Header(Header),
    /// The deflate data.
    Body,
    Trailer {
        bytes: [u8; TRAILER_LEN],
        len: usize,
    },
    /// After a member: another one, zero padding or the end of the file.
    Between,
    /// Zero bytes after the last member.
    Padding,
}

/// Decodes a gzip file from its first byte.
pub(super) struct GzipDecoder {
    state: State,
    inflater: Box<InflateState>,
    /// Where inflated bytes go before they are handed on.
    buffer: Vec<u8>,
    /// Compressed bytes read.
    offset: u64,
    /// Where the current member starts.
    member: u64,
    /// CRC-32 and length (modulo 2^32) of the current member's inflated data.
    crc: Crc32,
    size: u32,
}

impl fmt::Debug for GzipDecoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GzipDecoder")
            .field("state", &self.state)
            .field("offset", &self.offset)
            .field("member", &self.member)
            .finish_non_exhaustive()
    }
}

/// An [`ImportError::Gzip`].
fn corrupt(offset: u64, message: impl Into<String>) -> ImportError {
    ImportError::Gzip {
        offset,
        message: message.into(),
    }
}

impl GzipDecoder {
    pub fn new() -> GzipDecoder {
        GzipDecoder {
            state: State::Header(Header::new()),
            inflater: InflateState::new_boxed(DataFormat::Raw),
            buffer: vec![0; OUT_LEN],
            offset: 0,
            member: 0,
            crc: Crc32::default(),
            size: 0,
        }
    }

    /// Decodes the next bytes of the file, handing the inflated bytes to `out`.
    pub fn push(
        &mut self,
        mut input: &[u8],
        out: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        while let Some(&first) = input.first() {
            match &mut self.state {
                State::Between if first == 0 => self.state = State::Padding,
                State::Between if first == ID1 => self.start_member(),
                State::Between => {
                    return Err(corrupt(
                        self.offset,
                        "data after the end of a member that is not another member",
                    ))
                }
                State::Padding => {
                    let zeros = input.iter().take_while(|&&b| b == 0).count();
                    self.advance(&mut input, zeros);
                    if !input.is_empty() {
                        return Err(corrupt(
                            self.offset,
                            "data after the zero bytes that follow the last member",
                        ));
                    }
                }
                State::Header(header) => {
                    let (used, done) = header.read(input).map_err(|m| corrupt(self.member, m))?;
                    self.advance(&mut input, used);
                    if done {
                        self.state = State::Body;
                    }
                }
                State::Body => {
                    if self.inflate(&mut input, out)? {
                        self.state = State::Trailer {
                            bytes: [0; TRAILER_LEN],
                            len: 0,
                        };
                    }
                }
                State::Trailer { bytes, len } => {
                    let mut taken = 0;
                    for (slot, &byte) in bytes.iter_mut().skip(*len).zip(input) {
                        *slot = byte;
                        taken += 1;
                    }
                    *len += taken;
                    let full = (*len == TRAILER_LEN).then_some(*bytes);
                    self.advance(&mut input, taken);
                    if let Some(trailer) = full {
                        self.check(trailer)?;
                        self.state = State::Between;
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks that the file did not end inside a member.
    pub fn finish(&self) -> Result<(), ImportError> {
        match self.state {
            State::Between | State::Padding => Ok(()),
            State::Header(_) | State::Body => Err(ImportError::GzipTruncated {
                offset: self.offset,
            }),
            State::Trailer { len, .. } => Err(corrupt(
                self.offset,
                format!(
                    "the file ends inside the trailer of the member at byte {}, with {len} of \
                     its 8 bytes (checksum and length)",
                    self.member
                ),
            )),
        }
    }

    /// Counts `n` bytes of `input` as read.
    fn advance(&mut self, input: &mut &[u8], n: usize) {
        *input = input.get(n..).unwrap_or_default();
        self.offset += n as u64;
    }

    fn start_member(&mut self) {
        self.state = State::Header(Header::new());
        self.member = self.offset;
        self.inflater.reset(DataFormat::Raw);
        self.crc = Crc32::default();
        self.size = 0;
    }

    /// Inflates from `input` (consuming what it reads) until the input runs out or the
    /// member's compressed data ends: true in the second case.
    fn inflate(
        &mut self,
        input: &mut &[u8],
        out: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>,
    ) -> Result<bool, ImportError> {
        loop {
            let result = inflate(&mut self.inflater, input, &mut self.buffer, MZFlush::None);
            self.advance(input, result.bytes_consumed);
            let written = self.buffer.get(..result.bytes_written).unwrap_or_default();
            if !written.is_empty() {
                self.crc.update(written);
                // ISIZE is the length modulo 2^32; a piece is at most OUT_LEN long.
                self.size = self.size.wrapping_add(written.len() as u32);
                out(written)?;
            }
            let progress = result.bytes_consumed > 0 || result.bytes_written > 0;
            match result.status {
                Ok(MZStatus::StreamEnd) => return Ok(true),
                // With no input left, only output held back may still come.
                Ok(_) if progress => {}
                // `Buf`: the input ran out before the end of the compressed data.
                Ok(_) | Err(MZError::Buf) if input.is_empty() => return Ok(false),
                Ok(_) | Err(MZError::Buf) => {
                    return Err(corrupt(
                        self.offset,
                        "the decompressor stopped making progress",
                    ))
                }
                Err(_) => return Err(corrupt(self.offset, "invalid deflate data")),
            }
        }
    }

    /// Checks a member's trailer against the data inflated.
    fn check(&self, trailer: [u8; TRAILER_LEN]) -> Result<(), ImportError> {
        let [c0, c1, c2, c3, s0, s1, s2, s3] = trailer;
        let stored_crc = u32::from_le_bytes([c0, c1, c2, c3]);
        let stored_size = u32::from_le_bytes([s0, s1, s2, s3]);
        let start = self.offset.saturating_sub(TRAILER_LEN as u64);
        if stored_crc != self.crc.value() {
            return Err(corrupt(
                start,
                format!(
                    "the CRC-32 checksum of the member at byte {} is {:08x}, but its data's is \
                     {:08x}",
                    self.member,
                    stored_crc,
                    self.crc.value()
                ),
            ));
        }
        if stored_size != self.size {
            return Err(corrupt(
                start + 4,
                format!(
                    "the length of the member at byte {} is {stored_size} bytes (modulo 2^32), \
                     but its data is {} bytes",
                    self.member, self.size
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
