//! ISO-8601 date-times as .NET ticks: 100-nanosecond intervals since 0001-01-01T00:00:00Z.

/// Ticks in one second.
const TICKS_PER_SECOND: i64 = 10_000_000;

/// The .NET ticks of an ISO-8601 date or date-time, in UTC: `2024-03-01`,
/// `2024-03-01T12:30:00`, `2024-03-01T12:30:00.1234567Z`, `2024-03-01T14:30:00+02:00`. A
/// date-time without an offset is taken as UTC (as RavenDB stores `DateTime` values). Up to 7
/// fraction digits count (ticks are 100 ns); more are truncated.
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::dotnet_ticks;
///
/// assert_eq!(dotnet_ticks("0001-01-01T00:00:00Z"), Ok(0));
/// assert_eq!(dotnet_ticks("1970-01-01"), Ok(621_355_968_000_000_000));
/// assert_eq!(dotnet_ticks("2024-03-01T14:30:00+02:00"), dotnet_ticks("2024-03-01T12:30:00Z"));
/// assert!(dotnet_ticks("2024-02-30").is_err());
/// ```
pub fn dotnet_ticks(text: &str) -> Result<i64, String> {
    let bad = |what: &str| {
        Err(format!(
            "'{text}' is not an ISO-8601 date-time ({what}); write it as \
             2024-03-01T12:30:00Z"
        ))
    };
    let b = text.trim().as_bytes();
    let number = |from: usize, len: usize| -> Option<i64> {
        let digits = b.get(from..from + len)?;
        digits.iter().try_fold(0i64, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0'))
        })
    };
    let (Some(year), Some(month), Some(day)) = (number(0, 4), number(5, 2), number(8, 2)) else {
        return bad("the date must be YYYY-MM-DD");
    };
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return bad("the date must be YYYY-MM-DD");
    }
    if !(1..=12).contains(&month) || year < 1 || day < 1 || day > days_in_month(year, month) {
        return bad("no such day");
    }
    let mut ticks = days_before(year, month, day) * 86_400 * TICKS_PER_SECOND;
    let mut i = 10;
    if matches!(b.get(i), Some(b'T' | b't' | b' ')) {
        let (Some(hour), Some(minute)) = (number(i + 1, 2), number(i + 4, 2)) else {
            return bad("the time must be hh:mm[:ss[.fffffff]]");
        };
        if b.get(i + 3) != Some(&b':') || hour > 23 || minute > 59 {
            return bad("the time must be hh:mm[:ss[.fffffff]]");
        }
        i += 6;
        let mut second = 0;
        if b.get(i) == Some(&b':') {
            match number(i + 1, 2) {
                Some(s) if s <= 59 => second = s,
                _ => return bad("seconds must be 00 to 59"),
            }
            i += 3;
        }
        ticks += (hour * 3600 + minute * 60 + second) * TICKS_PER_SECOND;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            let mut fraction = 0;
            while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
                if i - start < 7 {
                    fraction = fraction * 10 + i64::from(d - b'0');
                }
                i += 1;
            }
            if i == start {
                return bad("a '.' must be followed by digits");
            }
            for _ in (i - start)..7 {
                fraction *= 10;
            }
            ticks += fraction;
        }
        match b.get(i) {
            None => {}
            Some(b'Z' | b'z') => i += 1,
            Some(&sign @ (b'+' | b'-')) => {
                let (Some(h), Some(m)) = (number(i + 1, 2), number(i + 4, 2)) else {
                    return bad("the offset must be +hh:mm or -hh:mm");
                };
                if b.get(i + 3) != Some(&b':') || h > 14 || m > 59 {
                    return bad("the offset must be +hh:mm or -hh:mm");
                }
                let offset = (h * 3600 + m * 60) * TICKS_PER_SECOND;
                // Local time minus its offset is UTC.
                ticks += if sign == b'+' { -offset } else { offset };
                i += 6;
            }
            Some(_) => return bad("unexpected text after the time"),
        }
    }
    if i != b.len() {
        return bad("unexpected text after the date");
    }
    if ticks < 0 {
        return bad("it is before 0001-01-01T00:00:00Z");
    }
    Ok(ticks)
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 0001-01-01 to the given date.
fn days_before(year: i64, month: i64, day: i64) -> i64 {
    let y = year - 1;
    let mut days = y * 365 + y / 4 - y / 100 + y / 400;
    for m in 1..month {
        days += days_in_month(year, m);
    }
    days + day - 1
}

#[cfg(test)]
mod tests {
    use super::dotnet_ticks;

    #[test]
    fn known_answers() {
        // DateTime(2024, 3, 1, 12, 30, 0, DateTimeKind.Utc).Ticks
        assert_eq!(
            dotnet_ticks("2024-03-01T12:30:00Z"),
            Ok(638_448_930_000_000_000)
        );
        assert_eq!(
            dotnet_ticks("2000-02-29T00:00:00.0000001Z"),
            Ok(630_873_792_000_000_001)
        );
        assert_eq!(
            dotnet_ticks("9999-12-31T23:59:59.9999999Z"),
            Ok(3_155_378_975_999_999_999)
        );
        assert_eq!(
            dotnet_ticks("2024-03-01T12:30"),
            dotnet_ticks("2024-03-01T12:30:00Z")
        );
        assert_eq!(
            dotnet_ticks("2024-03-01T12:30:00.123456789Z"),
            Ok(638_448_930_000_000_000 + 1_234_567)
        );
        assert_eq!(
            dotnet_ticks("2024-03-01T00:30:00-01:00"),
            dotnet_ticks("2024-03-01T01:30:00Z")
        );
    }

    #[test]
    fn refuses_what_is_not_a_date() {
        for bad in [
            "",
            "2024",
            "2024-13-01",
            "2023-02-29",
            "2024-03-01T24:00",
            "2024-03-01T12",
            "2024-03-01T12:30:00+2",
            "2024-03-01T12:30:00.Z",
            "2024-03-01x",
            "0001-01-01T00:00:00+01:00",
            "２０２４-03-01",
        ] {
            assert!(dotnet_ticks(bad).is_err(), "{bad}");
        }
    }
}
