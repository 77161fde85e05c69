//! The compression layer: gzip is recognised by its magic bytes and inflated as chunks
//! arrive; Zstandard is recognised and refused with a way out; anything else passes through.

use super::gzip::GzipDecoder;
use super::ImportError;

/// Enough bytes to recognise gzip (2) and Zstandard (4).
const SNIFF_LEN: usize = 4;
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

#[derive(Debug)]
pub(super) enum Decoder {
    /// Collecting the first bytes to tell what they are.
    Sniffing(Vec<u8>),
    /// Not compressed.
    Plain,
    /// gzip (every member of a multi-member file).
    Gzip(Box<GzipDecoder>),
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::Sniffing(Vec::with_capacity(SNIFF_LEN))
    }

    /// Decodes `chunk`, handing the decoded bytes to `out` as they come (in pieces of at
    /// most a few tens of KiB for gzip, so memory stays flat whatever the ratio).
    pub fn push(
        &mut self,
        chunk: &[u8],
        out: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        match self {
            Decoder::Plain => out(chunk),
            Decoder::Gzip(decoder) => decoder.push(chunk, out),
            Decoder::Sniffing(head) => {
                if head.len() + chunk.len() < SNIFF_LEN {
                    head.extend_from_slice(chunk);
                    if could_be_magic(head) {
                        return Ok(());
                    }
                    let head = std::mem::take(head);
                    self.start(&head)?;
                    return self.push(&head, out);
                }
                let head = std::mem::take(head);
                if head.is_empty() {
                    self.start(chunk)?;
                    return self.push(chunk, out);
                }
                let mut first = head;
                let from_chunk = SNIFF_LEN - first.len();
                first.extend_from_slice(&chunk[..from_chunk]);
                self.start(&first)?;
                self.push(&first, out)?;
                self.push(&chunk[from_chunk..], out)
            }
        }
    }

    /// Chooses the decoding from the first bytes of the input.
    fn start(&mut self, head: &[u8]) -> Result<(), ImportError> {
        *self = if head.starts_with(&GZIP_MAGIC) {
            Decoder::Gzip(Box::new(GzipDecoder::new()))
        } else if head.starts_with(&ZSTD_MAGIC) {
            return Err(ImportError::Zstd);
        } else {
            Decoder::Plain
        };
        Ok(())
    }

    /// Decodes what is left at the end of the input and checks that compressed data is
    /// complete.
    pub fn finish(
        &mut self,
        out: &mut dyn FnMut(&[u8]) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        match self {
            Decoder::Plain => Ok(()),
            Decoder::Sniffing(head) => {
                let head = std::mem::take(head);
                self.start(&head)?;
                self.push(&head, out)?;
                self.finish(out)
            }
            Decoder::Gzip(decoder) => decoder.finish(out),
        }
    }
}

/// Whether `head` (shorter than [`SNIFF_LEN`]) may be the start of gzip or Zstandard data.
fn could_be_magic(head: &[u8]) -> bool {
    (head.len() < GZIP_MAGIC.len() && GZIP_MAGIC.starts_with(head)) || ZSTD_MAGIC.starts_with(head)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use flate2::Compression;
    use std::io::Write;

    fn decode_in(chunks: &[&[u8]]) -> Result<Vec<u8>, ImportError> {
        let mut decoder = Decoder::new();
        let mut all = Vec::new();
        let mut out = |b: &[u8]| {
            all.extend_from_slice(b);
            Ok(())
        };
        for c in chunks {
            decoder.push(c, &mut out)?;
        }
        decoder.finish(&mut out)?;
        Ok(all)
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn plain_and_short_inputs_pass_through() {
        assert_eq!(decode_in(&[]).unwrap(), b"");
        assert_eq!(decode_in(&[b"a", b"", b"b"]).unwrap(), b"ab");
        assert_eq!(decode_in(&[b"abcdef"]).unwrap(), b"abcdef");
    }

    #[test]
    fn gzip_is_inflated_in_any_chunking() {
        let data: Vec<u8> = (0..100_000u32).flat_map(|i| i.to_le_bytes()).collect();
        let gz = gzip(&data);
        assert_eq!(decode_in(&[&gz]).unwrap(), data);
        let pieces: Vec<&[u8]> = gz.chunks(7).collect();
        assert_eq!(decode_in(&pieces).unwrap(), data);
        let mut two = gz.clone();
        two.extend_from_slice(&gzip(b"tail"));
        assert_eq!(decode_in(&[&two]).unwrap().len(), data.len() + 4);
    }

    #[test]
    fn bad_gzip_is_an_error() {
        let gz = gzip(&[7u8; 10_000]);
        let cut = &gz[..gz.len() / 2];
        assert!(matches!(
            decode_in(&[cut]),
            Err(ImportError::GzipTruncated { .. })
        ));
        let cut = &gz[..gz.len() - 3];
        assert!(matches!(
            decode_in(&[cut]),
            Err(ImportError::GzipTruncated { .. })
        ));
        let mut crc = gz.clone();
        crc[gz.len() - 6] ^= 1;
        assert!(
            matches!(decode_in(&[&crc]), Err(ImportError::Gzip { message, .. }) if message.contains("checksum"))
        );
        assert!(matches!(decode_in(&[&gz[..1]]), Ok(v) if v == gz[..1]));
        let mut bad = gz.clone();
        bad[3] = 0xff; // reserved header flags
        assert!(matches!(
            decode_in(&[&bad]),
            Err(ImportError::Gzip { offset: 10, .. })
        ));
        assert_eq!(decode_in(&[b"(\xb5/\xfd...."]), Err(ImportError::Zstd));
    }
}
