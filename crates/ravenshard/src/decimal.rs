//! Decimal numbers for people: fixed-point formatting and plain decimal parsing.
//!
//! The core's messages (an obese group's share) and the studio's fields (a percentage)
//! need a few decimals, not the whole of Rust's float formatting and parsing, whose tables
//! and algorithms cost the studio about 25 KB of WebAssembly. These work on integers.

/// `value` with exactly `decimals` digits after the point (at most 9), rounded half away
/// from zero; exact while `|value| × 10^decimals` is below 2^52. Values beyond ±9.2e18
/// after scaling, and NaN, print as `∞`, `-∞` or `NaN`.
///
/// # Examples
///
/// ```
/// use ravenshard::decimal::fixed;
///
/// assert_eq!(fixed(2.345, 2), "2.35");
/// assert_eq!(fixed(-0.04, 1), "-0.0");
/// assert_eq!(fixed(12.0, 0), "12");
/// assert_eq!(fixed(0.5, 3), "0.500");
/// assert_eq!(fixed(f64::NAN, 1), "NaN");
/// ```
pub fn fixed(value: f64, decimals: u32) -> String {
    let decimals = decimals.min(9);
    if value.is_nan() {
        return "NaN".to_string();
    }
    let scale = 10u64.pow(decimals);
    let scaled = value.abs() * scale as f64 + 0.5;
    // 2^63 as an f64: scaled values at or above it do not fit.
    if scaled >= 9_223_372_036_854_775_808.0 {
        return if value < 0.0 { "-∞" } else { "∞" }.to_string();
    }
    let scaled = scaled as u64;
    let (whole, fraction) = (scaled / scale, scaled % scale);
    let sign = if value.is_sign_negative() { "-" } else { "" };
    if decimals == 0 {
        format!("{sign}{whole}")
    } else {
        format!(
            "{sign}{whole}.{fraction:0width$}",
            width = decimals as usize
        )
    }
}

/// `value` with at most `decimals` digits after the point (at most 9), without trailing
/// zeros: `1.5`, `0.25`, `3`.
///
/// # Examples
///
/// ```
/// use ravenshard::decimal::trimmed;
///
/// assert_eq!(trimmed(1.5, 6), "1.5");
/// assert_eq!(trimmed(2.0, 3), "2");
/// assert_eq!(trimmed(-0.125, 2), "-0.13");
/// ```
pub fn trimmed(value: f64, decimals: u32) -> String {
    let text = fixed(value, decimals);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// Reads a plain decimal number: an optional sign, digits with at most one `.`, and an
/// optional exponent (`e` or `E`, optional sign, digits); at least one digit before the
/// exponent. Surrounding spaces are not accepted. Exact to about 15 significant digits,
/// which is all a field typed by a person (a percentage, a throughput) needs.
///
/// # Examples
///
/// ```
/// use ravenshard::decimal::parse_decimal;
///
/// assert_eq!(parse_decimal("50"), Some(50.0));
/// assert_eq!(parse_decimal("-12.5"), Some(-12.5));
/// assert_eq!(parse_decimal(".25"), Some(0.25));
/// assert_eq!(parse_decimal("1e3"), Some(1000.0));
/// assert_eq!(parse_decimal("1.5E-2"), Some(0.015));
/// assert_eq!(parse_decimal("12abc"), None);
/// assert_eq!(parse_decimal("."), None);
/// assert_eq!(parse_decimal("inf"), None);
/// ```
pub fn parse_decimal(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    // Up to 19 significant digits in an integer; further digits only move the exponent.
    let mut mantissa: u64 = 0;
    let mut digits = 0u32;
    let mut exponent: i64 = 0;
    let mut seen_digit = false;
    let mut seen_point = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {
                seen_digit = true;
                if digits < 19 {
                    mantissa = mantissa * 10 + u64::from(b - b'0');
                    if mantissa > 0 {
                        digits += 1;
                    }
                    if seen_point {
                        exponent -= 1;
                    }
                } else if !seen_point {
                    exponent += 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => break,
        }
        i += 1;
    }
    if !seen_digit {
        return None;
    }
    if let Some(b'e' | b'E') = bytes.get(i) {
        i += 1;
        let sign = match bytes.get(i) {
            Some(b'-') => {
                i += 1;
                -1
            }
            Some(b'+') => {
                i += 1;
                1
            }
            _ => 1,
        };
        let start = i;
        let mut power: i64 = 0;
        while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
            power = (power * 10 + i64::from(b - b'0')).min(100_000);
            i += 1;
        }
        if i == start {
            return None;
        }
        exponent += sign * power;
    }
    if i != bytes.len() {
        return None;
    }
    let value = scale(mantissa as f64, exponent);
    Some(if negative { -value } else { value })
}

/// `value × 10^exponent`, dividing by an exact power of ten for negative exponents, so that
/// short decimals (`0.015`) come out as the nearest `f64`.
fn scale(value: f64, exponent: i64) -> f64 {
    if value == 0.0 {
        return 0.0;
    }
    let mut result = value;
    let mut left = exponent.unsigned_abs();
    while left > 0 {
        let step = left.min(22);
        let power = 10f64.powi(step as i32);
        result = if exponent < 0 {
            result / power
        } else {
            result * power
        };
        left -= step;
        if result == 0.0 || result.is_infinite() {
            break;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_rounds_and_pads() {
        assert_eq!(fixed(1.25, 1), "1.3");
        assert_eq!(fixed(0.0, 2), "0.00");
        assert_eq!(fixed(-1.5, 0), "-2");
        assert_eq!(fixed(99.95, 1), "100.0");
        assert_eq!(fixed(1e300, 2), "∞");
        assert_eq!(fixed(f64::NEG_INFINITY, 2), "-∞");
        assert_eq!(fixed(1.0, 20), "1.000000000");
        assert_eq!(fixed(12345.678, 2), "12345.68");
    }

    #[test]
    fn parses_what_people_type() {
        for (text, value) in [
            ("0", 0.0),
            ("100", 100.0),
            ("33.3", 33.3),
            ("0.1", 0.1),
            ("007", 7.0),
            ("5.", 5.0),
            ("+2", 2.0),
            ("2.5e+1", 25.0),
            ("12345678901234567890123", 1.2345678901234568e22),
            ("0.000000000000000000001", 1e-21),
        ] {
            assert_eq!(parse_decimal(text), Some(value), "{text}");
        }
        for bad in [
            "", "-", "+", "e5", "1e", "1e+", "1..2", "1.2.3", " 1", "1 ", "NaN", "0x10",
        ] {
            assert_eq!(parse_decimal(bad), None, "{bad}");
        }
        assert_eq!(parse_decimal("1e999999999"), Some(f64::INFINITY));
        assert_eq!(parse_decimal("1e-999999999"), Some(0.0));
    }
}
