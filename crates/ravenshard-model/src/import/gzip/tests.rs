//! The gzip framing against files written by another implementation (flate2, and headers
//! built here byte by byte with flate2's CRC-32).

use super::*;
use flate2::write::{DeflateEncoder, GzEncoder};
use flate2::{Compression, Crc, GzBuilder};
use std::io::Write;

/// Decodes `chunks` in turn: the inflated bytes, or the first error.
fn decode(chunks: &[&[u8]]) -> Result<Vec<u8>, ImportError> {
    let mut decoder = GzipDecoder::new();
    let mut all = Vec::new();
    for chunk in chunks {
        decoder.push(chunk, &mut |b| {
            all.extend_from_slice(b);
            Ok(())
        })?;
    }
    decoder.finish()?;
    Ok(all)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A member with every optional header field and the given header bytes after the magic
/// and CM are written by `GzBuilder`.
fn gzip_with_fields(data: &[u8]) -> Vec<u8> {
    let mut e = GzBuilder::new()
        .filename("export.ravendbdump")
        .comment("a comment")
        .extra(vec![b'R', b'S', 3, 0, 1, 2, 3])
        .mtime(0x1234_5678)
        .write(Vec::new(), Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A member built by hand: `flags` with their fields, FHCRC when `header_crc` (corrupted
/// when `bad_header_crc`), then raw deflate and the trailer.
fn handmade(data: &[u8], flags: u8, bad_header_crc: bool) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, flags, 1, 2, 3, 4, 0, 3];
    if flags & FEXTRA_FLAG != 0 {
        out.extend_from_slice(&[4, 0, b'a', b'b', 0, 0]);
    }
    if flags & FNAME_FLAG != 0 {
        out.extend_from_slice(b"name.json\0");
    }
    if flags & FCOMMENT_FLAG != 0 {
        out.extend_from_slice(b"said \x1f\x8b\0");
    }
    if flags & FHCRC_FLAG != 0 {
        let mut crc = Crc::new();
        crc.update(&out);
        let check = (crc.sum() as u16) ^ u16::from(bad_header_crc);
        out.extend_from_slice(&check.to_le_bytes());
    }
    let mut deflate = DeflateEncoder::new(out, Compression::default());
    deflate.write_all(data).unwrap();
    let mut out = deflate.finish().unwrap();
    let mut crc = Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

const FTEXT_FLAG: u8 = 1;
const FHCRC_FLAG: u8 = 2;
const FEXTRA_FLAG: u8 = 4;
const FNAME_FLAG: u8 = 8;
const FCOMMENT_FLAG: u8 = 16;

fn sample() -> Vec<u8> {
    (0..20_000u32)
        .flat_map(|i| {
            format!("orders/{i}-A\t{}\n", i.wrapping_mul(2_654_435_761) % 9973).into_bytes()
        })
        .collect()
}

#[test]
fn every_header_field_is_skipped() {
    let data = sample();
    assert_eq!(decode(&[&gzip_with_fields(&data)]).unwrap(), data);
    let data = &data[..2000];
    for flags in 0..32 {
        let member = handmade(data, flags, false);
        assert_eq!(decode(&[&member]).unwrap(), data, "flags {flags:#x}");
        // Header fields split at every byte.
        let bytes: Vec<&[u8]> = member.chunks(1).collect();
        assert_eq!(
            decode(&bytes).unwrap(),
            data,
            "flags {flags:#x}, byte by byte"
        );
    }
    let all = FTEXT_FLAG | FHCRC_FLAG | FEXTRA_FLAG | FNAME_FLAG | FCOMMENT_FLAG;
    assert_eq!(decode(&[&handmade(b"", all, false)]).unwrap(), b"");
}

#[test]
fn a_wrong_header_crc_is_an_error() {
    let member = handmade(b"abc", FNAME_FLAG | FHCRC_FLAG, true);
    let err = decode(&[&member]).unwrap_err();
    assert!(
        matches!(&err, ImportError::Gzip { offset: 0, message } if message.contains("FHCRC")),
        "{err:?}"
    );
}

#[test]
fn bad_headers_are_errors_at_the_member() {
    let good = gzip(b"abc");
    let cases: [(usize, u8, &str); 4] = [
        (1, 0x8c, "magic"),
        (2, 7, "not deflate"),
        (3, 0x20, "reserved"),
        (3, 0x80, "reserved"),
    ];
    for (at, value, says) in cases {
        let mut bad = good.clone();
        bad[at] = value;
        let two = [good.clone(), bad].concat();
        let err = decode(&[&two]).unwrap_err();
        assert!(
            matches!(&err, ImportError::Gzip { offset, message }
                if *offset == good.len() as u64 && message.contains(says)),
            "byte {at} = {value:#x}: {err:?}"
        );
    }
}

#[test]
fn members_are_concatenated() {
    let parts: [&[u8]; 4] = [b"first\n", b"", b"third\n", &sample()];
    let file: Vec<u8> = [
        gzip(parts[0]),
        gzip(parts[1]),
        gzip_with_fields(parts[2]),
        handmade(parts[3], FNAME_FLAG | FHCRC_FLAG, false),
    ]
    .concat();
    let expected = parts.concat();
    assert_eq!(decode(&[&file]).unwrap(), expected);
    for size in [1, 2, 3, 7, 1000] {
        let chunks: Vec<&[u8]> = file.chunks(size).collect();
        assert_eq!(decode(&chunks).unwrap(), expected, "chunks of {size}");
    }
}

#[test]
fn a_corrupt_crc_names_the_trailer() {
    let data = sample();
    let mut file = [gzip(b"x"), gzip(&data)].concat();
    let n = file.len();
    file[n - 8] ^= 0x10;
    let err = decode(&[&file]).unwrap_err();
    let trailer = (n - 8) as u64;
    assert!(
        matches!(&err, ImportError::Gzip { offset, message }
            if *offset == trailer && message.contains("CRC-32") && message.contains("checksum")),
        "{err:?}"
    );
}

#[test]
fn a_wrong_length_names_the_trailer() {
    let mut file = gzip(&sample());
    let n = file.len();
    file[n - 1] ^= 0x01;
    let err = decode(&[&file]).unwrap_err();
    assert!(
        matches!(&err, ImportError::Gzip { offset, message }
            if *offset == (n - 4) as u64 && message.contains("length")),
        "{err:?}"
    );
}

#[test]
fn truncation_at_every_byte_is_an_error() {
    for file in [
        gzip(b"orders/1-A\norders/2-A\n"),
        gzip_with_fields(b"some text"),
        handmade(b"abc", 0x1f, false),
    ] {
        let n = file.len();
        for cut in 0..n {
            let err = decode(&[&file[..cut]]).unwrap_err();
            if cut < n - TRAILER_LEN {
                assert_eq!(err, ImportError::GzipTruncated { offset: cut as u64 });
            } else {
                assert!(
                    matches!(&err, ImportError::Gzip { offset, message }
                        if *offset == cut as u64 && message.contains("trailer")),
                    "cut at {cut}: {err:?}"
                );
            }
            // Cut and also fed byte by byte.
            let bytes: Vec<&[u8]> = file[..cut].chunks(1).collect();
            assert_eq!(decode(&bytes), Err(err), "cut at {cut}");
        }
    }
}

#[test]
fn zero_padding_after_the_last_member_is_ignored() {
    let data = b"padded\n";
    let mut file = gzip(data);
    file.extend_from_slice(&[0; 700]);
    assert_eq!(decode(&[&file]).unwrap(), data);
    let chunks: Vec<&[u8]> = file.chunks(3).collect();
    assert_eq!(decode(&chunks).unwrap(), data);
    // Only zeros: not another member after them, nor anything else.
    for after in [gzip(b"more"), b"x".to_vec()] {
        let padded = file.len() as u64;
        let err = decode(&[&file, &after]).unwrap_err();
        assert!(
            matches!(&err, ImportError::Gzip { offset, .. } if *offset == padded),
            "{err:?}"
        );
    }
}

#[test]
fn garbage_after_a_member_is_an_error() {
    let file = gzip(b"abc");
    let err = decode(&[&file, b"not gzip"]).unwrap_err();
    assert!(
        matches!(&err, ImportError::Gzip { offset, .. } if *offset == file.len() as u64),
        "{err:?}"
    );
}

#[test]
fn invalid_deflate_data_is_an_error() {
    let mut file = gzip(b"abc");
    // Block type 3 is reserved.
    file[10] |= 0b110;
    assert!(matches!(
        decode(&[&file]),
        Err(ImportError::Gzip { message, .. }) if message.contains("deflate")
    ));
}

#[test]
fn inflated_pieces_are_bounded_whatever_the_ratio() {
    // 8 MiB of zeros compress about a thousandfold.
    let data = vec![0u8; 8 << 20];
    let file = gzip(&data);
    assert!(file.len() < 20_000, "{}", file.len());
    let mut decoder = GzipDecoder::new();
    let (mut total, mut largest) = (0, 0);
    decoder
        .push(&file, &mut |piece| {
            total += piece.len();
            largest = largest.max(piece.len());
            Ok(())
        })
        .unwrap();
    decoder.finish().unwrap();
    assert_eq!(total, data.len());
    assert!(largest <= OUT_LEN, "{largest}");
}

#[test]
fn an_error_from_the_consumer_stops_decoding() {
    let file = gzip(&sample());
    let mut decoder = GzipDecoder::new();
    let mut calls = 0;
    let result = decoder.push(&file, &mut |_| {
        calls += 1;
        Err(ImportError::NoDocsArray)
    });
    assert_eq!(result, Err(ImportError::NoDocsArray));
    assert_eq!(calls, 1);
}
