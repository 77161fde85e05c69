//! How the studio writes numbers for people: counts with thousands separators, byte sizes,
//! shares and plurals. Every layer uses them; they use nothing of the studio.

/// `1048576` as `1,048,576`.
///
/// # Examples
///
/// ```
/// assert_eq!(ravenshard_studio::numbers::group_digits(1_048_576), "1,048,576");
/// ```
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `"s"` unless there is exactly one.
pub fn plural(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

/// A count with thousands separators: `12,345` ([`group_digits`], for any unsigned count).
pub fn count(n: impl Into<u64>) -> String {
    group_digits(n.into())
}

/// A byte size for people: `760 B`, `9.4 KB`, `1.2 MB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A share (0..=1) in percent with one decimal.
pub fn percent(share: f64) -> String {
    if share.is_finite() {
        format!("{:.1}%", share * 100.0)
    } else {
        "–".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(count(1234567u64), "1,234,567");
        assert_eq!(count(12u64), "12");
        assert_eq!(bytes(760), "760 B");
        assert_eq!(bytes(2048), "2.0 KB");
        assert_eq!(percent(0.5), "50.0%");
        assert_eq!(plural(1u64), "");
        assert_eq!(plural(2u64), "s");
    }

    #[test]
    fn digits_are_grouped() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(1_048_576), "1,048,576");
    }
}
