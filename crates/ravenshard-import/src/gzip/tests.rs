//! gzip files as users have them: written by flate2 (like gzip and RavenDB), with every
//! header field (built here byte by byte), in several members, cut short or damaged.

use super::*;
use flate2::write::{DeflateEncoder, GzEncoder};
use flate2::{Compression, Crc, GzBuilder};
use std::io::Write;

/// Decodes `chunks` in turn: the inflated bytes, or the first error.
fn decode(chunks: &[&[u8]]) -> Result<Vec<u8>, ImportError> {
    let mut decoder = GzipDecoder::new();
    let mut all = Vec::new();
    let mut out = |b: &[u8]| {
        all.extend_from_slice(b);
        Ok(())
    };
    for chunk in chunks {
        decoder.push(chunk, &mut out)?;
    }
    decoder.finish(&mut out)?;
    Ok(all)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A member with a file name, a comment, an extra field and a time, as `GzBuilder` writes
/// them.
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

const FTEXT_FLAG: u8 = 1;
const FHCRC_FLAG: u8 = 2;
const FEXTRA_FLAG: u8 = 4;
const FNAME_FLAG: u8 = 8;
const FCOMMENT_FLAG: u8 = 16;

/// A member built by hand: `flags` with their fields, FHCRC when the flag is set
/// (corrupted when `bad_header_crc`), then raw deflate and the trailer.
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

fn sample() -> Vec<u8> {
    (0..20_000u32)
        .flat_map(|i| {
            format!("orders/{i}-A\t{}\n", i.wrapping_mul(2_654_435_761) % 9973).into_bytes()
        })
        .collect()
}

/// The message of an [`ImportError::Gzip`], and its offset.
fn corrupt(result: Result<Vec<u8>, ImportError>) -> (u64, String) {
    match result {
        Err(ImportError::Gzip { offset, message }) => (offset, message),
        other => panic!("a gzip error was expected: {other:?}"),
    }
}

#[test]
fn every_header_field_is_read_in_any_chunking() {
    let data = sample();
    assert_eq!(decode(&[&gzip_with_fields(&data)]).unwrap(), data);
    let data = &data[..2000];
    for flags in 0..32 {
        let member = handmade(data, flags, false);
        assert_eq!(decode(&[&member]).unwrap(), data, "flags {flags:#x}");
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
fn a_wrong_header_checksum_is_an_error() {
    let member = handmade(b"abc", FNAME_FLAG | FHCRC_FLAG, true);
    let (_, message) = corrupt(decode(&[&member]));
    assert!(message.contains("header checksum"), "{message}");
}

#[test]
fn bad_headers_are_errors_near_their_member() {
    let good = gzip(b"abc");
    for (at, value) in [(1, 0x8c), (2, 7), (3, 0x20), (3, 0x80)] {
        let mut bad = good.clone();
        bad[at] = value;
        let two = [good.clone(), bad].concat();
        let (offset, message) = corrupt(decode(&[&two]));
        let member = good.len() as u64;
        assert!(
            (member..=member + 10).contains(&offset),
            "byte {at} = {value:#x}: {offset}"
        );
        assert!(message.contains("header is not gzip"), "{message}");
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
fn a_damaged_trailer_is_a_checksum_error() {
    let data = sample();
    let file = [gzip(b"x"), gzip(&data)].concat();
    let n = file.len();
    // The CRC-32, then the length.
    for at in [n - 8, n - 1] {
        let mut bad = file.clone();
        bad[at] ^= 0x10;
        let (offset, message) = corrupt(decode(&[&bad]));
        assert_eq!(offset, n as u64);
        assert!(message.contains("checksum"), "{message}");
    }
}

#[test]
fn truncation_at_every_byte_is_an_error() {
    for file in [
        gzip(b"orders/1-A\norders/2-A\n"),
        gzip_with_fields(b"some text"),
        handmade(b"abc", 0x1f, false),
    ] {
        for cut in 1..file.len() {
            let err = decode(&[&file[..cut]]).unwrap_err();
            assert_eq!(err, ImportError::GzipTruncated { offset: cut as u64 });
            assert!(err.to_string().contains("the file is incomplete"), "{err}");
            // Cut and also fed byte by byte.
            let bytes: Vec<&[u8]> = file[..cut].chunks(1).collect();
            assert_eq!(decode(&bytes), Err(err), "cut at {cut}");
        }
    }
}

#[test]
fn anything_after_a_member_but_a_member_is_an_error() {
    let file = gzip(b"abc");
    // Zero padding (from tape and block devices) included: gzip(1) would warn about it.
    for after in [&b"this is not another member"[..], &[0; 700]] {
        let (offset, message) = corrupt(decode(&[&file, after]));
        assert!(offset > file.len() as u64, "{offset}");
        assert!(
            message.contains("what follows a member is not another member"),
            "{message}"
        );
    }
}

#[test]
fn invalid_deflate_data_is_an_error() {
    let mut file = gzip(b"abc");
    // Block type 3 is reserved.
    file[10] |= 0b110;
    let (offset, message) = corrupt(decode(&[&file]));
    assert_eq!((offset, message.as_str()), (11, "invalid deflate data"));
}

#[test]
fn inflated_pieces_are_bounded_whatever_the_ratio() {
    // 8 MiB of zeros compress about a thousandfold.
    let data = vec![0u8; 8 << 20];
    let file = gzip(&data);
    assert!(file.len() < 20_000, "{}", file.len());
    let mut decoder = GzipDecoder::new();
    let (mut total, mut largest) = (0, 0);
    let mut out = |piece: &[u8]| {
        total += piece.len();
        largest = largest.max(piece.len());
        Ok(())
    };
    decoder.push(&file, &mut out).unwrap();
    decoder.finish(&mut out).unwrap();
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

#[test]
fn the_head_of_a_file_inflates_as_far_as_it_goes() {
    let data = sample();
    let file = gzip(&data);
    assert_eq!(inflate_head(&file, 100), &data[..100]);
    let some = inflate_head(&file[..file.len() / 2], usize::MAX);
    assert!(!some.is_empty() && data.starts_with(&some));
    assert_eq!(inflate_head(&file[..4], 100), b"");
}
