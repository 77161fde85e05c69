//! gzip (RFC 1952) decoded as its chunks arrive, by flate2: headers, multi-member files
//! (pigz, `cat a.gz b.gz`), CRC-32 and length checks are flate2's.
//!
//! flate2's decoders pull their input; here it is pushed. The pushed bytes wait in
//! [`Pending`], which answers `WouldBlock` once they are used up, so the decoder stops there
//! and resumes where it was on the next push (flate2 keeps its state across `WouldBlock`,
//! as non-blocking readers need). Inflated bytes are handed on in pieces of at most
//! [`OUT_LEN`] bytes, so memory stays flat whatever the compression ratio.
//!
//! * A file that ends inside a member (header, compressed data or trailer) is
//!   [`ImportError::GzipTruncated`], and so is one that ends less than a header's 10 bytes
//!   after a member (there is no telling whether they start another member).
//! * A bad header, invalid deflate data, a checksum or length that does not match, and
//!   anything after a member that is not another member are [`ImportError::Gzip`].

use super::ImportError;
use flate2::bufread::MultiGzDecoder;
use std::fmt;
use std::io::{self, BufRead, Read};

/// The most decompressed bytes handed on at once.
const OUT_LEN: usize = 32 << 10;

/// Compressed bytes pushed and not yet read by the decoder.
#[derive(Debug, Default)]
struct Pending {
    bytes: Vec<u8>,
    /// How many of `bytes` the decoder has read.
    read: usize,
    /// Compressed bytes read from the start of the file.
    offset: u64,
    /// No more bytes will come: reading past them is the end of the file.
    end: bool,
}

impl Pending {
    /// Adds pushed bytes, dropping those already read.
    fn push(&mut self, chunk: &[u8]) {
        self.bytes.drain(..self.read);
        self.read = 0;
        self.bytes.extend_from_slice(chunk);
    }
}

impl BufRead for Pending {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let rest = self.bytes.get(self.read..).unwrap_or_default();
        if rest.is_empty() && !self.end {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        Ok(rest)
    }

    fn consume(&mut self, n: usize) {
        self.read += n;
        self.offset += n as u64;
    }
}

impl Read for Pending {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let rest = self.fill_buf()?;
        let n = rest.len().min(out.len());
        out[..n].copy_from_slice(&rest[..n]);
        self.consume(n);
        Ok(n)
    }
}

/// Decodes a gzip file from its first byte.
pub(super) struct GzipDecoder {
    decoder: MultiGzDecoder<Pending>,
    /// Where inflated bytes go before they are handed on.
    buffer: Vec<u8>,
}

impl fmt::Debug for GzipDecoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GzipDecoder")
            .field("offset", &self.decoder.get_ref().offset)
            .finish_non_exhaustive()
    }
}

impl GzipDecoder {
    pub fn new() -> GzipDecoder {
        GzipDecoder {
            decoder: MultiGzDecoder::new(Pending::default()),
            buffer: vec![0; OUT_LEN],
        }
    }

    /// Decodes the next bytes of the file, handing the inflated bytes to `out`.
    pub fn push(
        &mut self,
        chunk: &[u8],
        out: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        self.decoder.get_mut().push(chunk);
        self.inflate(out)
    }

    /// Decodes what is left and checks that the file did not end inside a member.
    pub fn finish(
        &mut self,
        out: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        self.decoder.get_mut().end = true;
        self.inflate(out)
    }

    /// Inflates until the pushed bytes are used up (or, at the end, the file is).
    fn inflate(
        &mut self,
        out: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        loop {
            match self.decoder.read(&mut self.buffer) {
                Ok(0) => return Ok(()),
                Ok(n) => out(self.buffer.get(..n).unwrap_or_default())?,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) => return Err(self.error(&e)),
            }
        }
    }

    /// What flate2's error means for the file.
    fn error(&self, e: &io::Error) -> ImportError {
        let offset = self.decoder.get_ref().offset;
        if e.kind() == io::ErrorKind::UnexpectedEof {
            return ImportError::GzipTruncated { offset };
        }
        let text = e.to_string();
        let message = if text.contains("header") {
            "a member header is not gzip (its magic bytes, compression method or flags), or \
             what follows a member is not another member"
        } else if text.contains("checksum") {
            "a checksum does not match the data: the CRC-32 or length in a member's trailer, \
             or its header checksum"
        } else if text.contains("deflate") {
            "invalid deflate data"
        } else {
            text.as_str()
        };
        ImportError::Gzip {
            offset,
            message: message.to_string(),
        }
    }
}

/// The first bytes that `head` (the start of a gzip file) inflates to, at most `max`: as
/// many as inflate before the head runs out or turns out to be damaged.
pub(super) fn inflate_head(head: &[u8], max: usize) -> Vec<u8> {
    let mut inflated = Vec::new();
    // An error (the head is cut short, or damaged) ends the bytes that could be inflated.
    let _ = MultiGzDecoder::new(head)
        .take(max as u64)
        .read_to_end(&mut inflated);
    inflated
}

#[cfg(test)]
mod tests;
