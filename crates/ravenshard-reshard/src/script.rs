//! The calls as a POSIX shell script: `curl` starts one `resharding/start` operation,
//! polls `GET /operations/state?id=` until it ends, and only then starts the next. It
//! stops at the first error, saying which range was left and which remain.

use super::calls::{encoded, Calls};
use super::estimate::Estimate;
use std::fmt::Write;

/// A value in single quotes for the shell.
fn quoted(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

/// An estimate as `data 20s + buckets 10400s (260000 × 0.040s) = 10420s`.
fn estimate_text(e: &Estimate) -> String {
    let data = e
        .data_seconds
        .map_or("unknown (no throughput)".to_string(), |d| {
            format!("{d:.0}s")
        });
    let total = e
        .total_seconds
        .map_or(String::new(), |t| format!(" = {t:.0}s"));
    format!(
        "data {data} + buckets {:.0}s ({} x {:.3}s){total}",
        e.buckets_seconds, e.buckets, e.bucket_cost_seconds
    )
}

/// The script's fixed part: options, the HTTP helper, one call, the loop.
const BODY: &str = r#"usage() {
    echo "usage: $0 [--url URL] [--cert FILE] [--key FILE] [--cacert FILE] [--poll SECONDS] [--from CALL]"
}
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --url|--cert|--key|--cacert|--poll|--from)
            if [ $# -lt 2 ]; then echo "$0: $1 needs a value" >&2; usage >&2; exit 2; fi
            case $1 in
                --url) URL=${2%/} ;;
                --cert) CERT=$2 ;;
                --key) KEY=$2 ;;
                --cacert) CACERT=$2 ;;
                --poll) POLL=$2 ;;
                --from) FROM=$2 ;;
            esac
            shift 2 ;;
        *) echo "$0: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

# request WHAT METHOD PATH: sets body to the answer; says what failed (for WHAT) and returns
# 1 when curl cannot reach the node or the answer is not 2xx.
request() {
    what=$1
    method=$2
    target=$URL$3
    set --
    if [ -n "$CERT" ]; then set -- "$@" --cert "$CERT"; fi
    if [ -n "$KEY" ]; then set -- "$@" --key "$KEY"; fi
    if [ -n "$CACERT" ]; then set -- "$@" --cacert "$CACERT"; fi
    if [ "$method" = POST ]; then set -- "$@" --data ''; fi
    answer=$(curl -sS -X "$method" "$@" -w '\n%{http_code}' "$target" </dev/null) || {
        echo "$what: curl could not reach $URL" >&2; return 1; }
    code=$(printf '%s\n' "$answer" | tail -n 1)
    body=$(printf '%s\n' "$answer" | sed '$d')
    case $code in
        2??) return 0 ;;
        *) echo "$what: the server answered HTTP $code: $body" >&2; return 1 ;;
    esac
}

# field NAME: a number or a string field of the JSON on stdin.
field() {
    tr -d '\r\n' | sed -n \
        -e "s/.*\"$1\"[[:space:]]*:[[:space:]]*\"\([^\"]*\)\".*/\1/p" \
        -e "t" \
        -e "s/.*\"$1\"[[:space:]]*:[[:space:]]*\([0-9][0-9]*\).*/\1/p"
}

# pause N: the wait before poll N+1 of an operation. A one-bucket call ends in well under a
# second, so the first waits are short (fractions of a second where sleep takes them), then
# every POLL seconds.
pause() {
    if [ "$POLL" = 0 ]; then return 0; fi
    case $1 in
        1) sleep 0.1 2>/dev/null || sleep 1 ;;
        2) sleep 0.5 2>/dev/null || sleep 1 ;;
        *) sleep "$POLL" ;;
    esac
}

# run N FROM TO SHARD: one resharding/start, polled until it ends.
run() {
    request "call $1" POST "/admin/resharding/start?database=$DATABASE&fromBucket=$2&toBucket=$3&toShard=$4" || return 1
    id=$(printf '%s' "$body" | field OperationId)
    node=$(printf '%s' "$body" | field OperationNodeTag)
    if [ -z "$id" ]; then echo "call $1: no OperationId in the answer: $body" >&2; return 1; fi
    echo "call $1: buckets $2..$3 to shard $4: operation $id on node $node"
    polls=0
    while :; do
        request "call $1: operation $id" GET "/operations/state?id=$id" || return 1
        status=$(printf '%s' "$body" | field Status)
        case $status in
            Completed) echo "call $1: completed"; return 0 ;;
            InProgress) polls=$((polls + 1)); pause "$polls" ;;
            Faulted|Canceled)
                message=$(printf '%s' "$body" | field Message)
                echo "call $1: operation $id $status: ${message:-$body}" >&2; return 1 ;;
            *) echo "call $1: operation $id: no known Status in: $body" >&2; return 1 ;;
        esac
    done
}

left=
while read -r n from to shard; do
    if [ "$n" -lt "$FROM" ]; then continue; fi
    if [ -n "$left" ]; then
        echo "  remaining: call $n: buckets $from..$to to shard $shard" >&2
        continue
    fi
    if ! run "$n" "$from" "$to" "$shard"; then
        left=$n
        echo "stopped: call $n (buckets $from..$to to shard $shard) was left unfinished; buckets already moved stay moved and are skipped when the call is started again." >&2
        echo "resume with: $0 --from $n" >&2
    fi
done <<CALLS
"#;

impl Calls {
    /// The calls as a POSIX shell script (`sh`, `curl`, `sed`, `tr`, `tail`).
    ///
    /// Run it as `sh calls.sh [--url URL] [--cert FILE] [--key FILE] [--cacert FILE]
    /// [--poll SECONDS] [--from CALL]`; the defaults are the options the calls were made
    /// with. It exits 0 when every call completed, 1 at the first that did not (after
    /// listing the calls that remain), 2 for a bad option.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::{calls, plan, BucketLoad, CallsOptions, PlanOptions};
    /// use ravenshard::Topology;
    ///
    /// let current = Topology::with_shards(2).unwrap();
    /// let target = Topology::with_shards(1).unwrap();
    /// let p = plan(&current, &target, &BucketLoad::default(), &PlanOptions::default()).unwrap();
    /// let script = calls(&current, &p, &CallsOptions::default()).unwrap().script();
    /// assert!(script.starts_with("#!/bin/sh\n"));
    /// assert!(script.contains("\n1 524288 1048575 0\n"));
    /// ```
    pub fn script(&self) -> String {
        let mut out = String::from("#!/bin/sh\n");
        let mut line = |text: String| {
            out.push_str(&text);
            out.push('\n');
        };
        line(format!(
            "# ravenshard: {} resharding call(s) for database '{}', {} bucket migration(s).",
            self.calls.len(),
            self.database.replace('\n', " "),
            self.estimate.buckets
        ));
        line(format!("# Estimate: {}.", estimate_text(&self.estimate)));
        line("# Each call is POST /admin/resharding/start; the script polls".into());
        line(
            "# GET /operations/state?id=<OperationId> on the same node until the operation".into(),
        );
        line(
            "# is Completed, and only then starts the next call. It stops at the first error."
                .into(),
        );
        for (when, chores) in [("Before", &self.before), ("After", &self.after)] {
            for chore in chores.iter() {
                line(format!("# {when} the calls: {chore}"));
            }
        }
        line("set -u".into());
        line(format!("URL={}", quoted(&self.url)));
        line(format!("DATABASE={}", quoted(&encoded(&self.database))));
        for (name, value) in [
            ("CERT", &self.cert),
            ("KEY", &self.key),
            ("CACERT", &self.cacert),
        ] {
            line(format!("{name}={}", quoted(value.as_deref().unwrap_or(""))));
        }
        line(format!("POLL={}", self.poll_seconds));
        line("FROM=1".into());
        out.push_str(BODY);
        for c in &self.calls {
            let _ = writeln!(
                out,
                "{} {} {} {}",
                c.call, c.from_bucket, c.to_bucket, c.to_shard
            );
        }
        out.push_str("CALLS\nif [ -n \"$left\" ]; then exit 1; fi\necho \"all calls completed\"\n");
        out
    }
}
