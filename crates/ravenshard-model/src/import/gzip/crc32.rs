//! CRC-32 as gzip uses it (IEEE 802.3: reflected, polynomial 0xEDB88320, initial value and
//! final XOR all ones), one byte at a time through a 256-entry table computed at compile
//! time: 1 KiB of data and no start-up work, which is what a page download wants (the
//! faster slice-by-16 tables cost 16 KiB).

/// The reversed IEEE polynomial.
const POLYNOMIAL: u32 = 0xEDB8_8320;

/// `TABLE[n]` is the CRC of the byte `n` shifted through eight times.
static TABLE: [u32; 256] = table();

const fn table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut crc = n as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ POLYNOMIAL
            } else {
                crc >> 1
            };
            bit += 1;
        }
        table[n] = crc;
        n += 1;
    }
    table
}

/// A running CRC-32.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Crc32(u32);

impl Crc32 {
    /// Adds `bytes` to the checksum.
    pub fn update(&mut self, bytes: &[u8]) {
        let mut crc = !self.0;
        for &byte in bytes {
            // Truncating to the low byte is the point: it indexes the table.
            crc = TABLE[usize::from(crc as u8 ^ byte)] ^ (crc >> 8);
        }
        self.0 = !crc;
    }

    /// The CRC-32 of the bytes added so far.
    pub fn value(self) -> u32 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crc(bytes: &[u8]) -> u32 {
        let mut crc = Crc32::default();
        crc.update(bytes);
        crc.value()
    }

    #[test]
    fn known_answers() {
        assert_eq!(crc(b""), 0);
        // The standard check value of CRC-32/ISO-HDLC.
        assert_eq!(crc(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc(b"a"), 0xE8B7_BE43);
        assert_eq!(
            crc(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
        assert_eq!(TABLE[1], 0x7707_3096);
        assert_eq!(TABLE[255], 0x2D02_EF8D);
    }

    #[test]
    fn updating_in_pieces_is_the_same() {
        let data: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut pieces = Crc32::default();
        for piece in data.chunks(7) {
            pieces.update(piece);
        }
        pieces.update(b"");
        assert_eq!(pieces.value(), crc(&data));
    }
}
