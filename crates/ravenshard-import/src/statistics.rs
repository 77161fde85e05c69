//! Telling a saved bucket statistics answer of RavenDB (`GET /databases/<db>/debug/sharding/buckets`
//! or `.../debug/sharding/bucket?bucket=N`) from a document list, by its first bytes: such
//! a file is read whole by `ravenshard_reshard::BucketStatistics::read`
//! rather than imported as documents.

/// Whether `head` (the first bytes of a file, a few KB) is the start of a bucket statistics
/// answer: a JSON object (after an optional byte-order mark and whitespace) whose first key
/// is one RavenDB writes first in these answers (`TotalSizeHumane`, `TotalSize`,
/// `BucketRanges`, or `Bucket` of a single bucket).
///
/// # Examples
///
/// ```
/// use ravenshard_import::is_bucket_statistics;
///
/// assert!(is_bucket_statistics(br#"{"TotalSizeHumane": "1.21 KBytes", "TotalSize": 1240, "BucketRanges": {"#));
/// assert!(is_bucket_statistics(b"\xEF\xBB\xBF\n { \"Bucket\": 7, \"Size\": 10"));
/// assert!(!is_bucket_statistics(br#"{"BuildVersion": 60000, "Docs": ["#));
/// assert!(!is_bucket_statistics(br#"["orders/1-A"]"#));
/// ```
pub fn is_bucket_statistics(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let rest = head.trim_ascii_start();
    let Some(rest) = rest.strip_prefix(b"{") else {
        return false;
    };
    let rest = rest.trim_ascii_start();
    ["TotalSizeHumane", "TotalSize", "BucketRanges", "Bucket"]
        .iter()
        .any(|key| rest.starts_with(format!("\"{key}\"").as_bytes()))
}
