//! The bucket map's geometry, free of the DOM: which buckets a [`View`] shows, where a
//! bucket is drawn, how zooming and panning move the view, and how many bins a width holds.
//!
//! Buckets are `u64` here so that the end of the last block (2^31) and products of spans
//! never overflow; x coordinates are CSS pixels from the left edge of the map.

use ravenshard::NUMBER_OF_BUCKETS;
use ravenshard_model::workspace::MAX_BINS;

/// Buckets in one block (2^20).
pub const BLOCK_LEN: u64 = NUMBER_OF_BUCKETS as u64;

/// The fewest buckets a view shows: zooming stops at single buckets.
pub const MIN_SPAN: u64 = 1;

/// How many CSS pixels one bin of the map is wide (about; the bins divide the view evenly).
pub const PX_PER_BIN: f64 = 2.0;

/// Buckets `[start, end)` of the block that starts at `block_start`: what the map shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    /// First bucket of the block.
    pub block_start: u64,
    /// First bucket shown.
    pub start: u64,
    /// One past the last bucket shown.
    pub end: u64,
}

impl View {
    /// The whole block that starts at `block_start`.
    pub fn whole(block_start: u64) -> View {
        View {
            block_start,
            start: block_start,
            end: block_start + BLOCK_LEN,
        }
    }

    /// One past the last bucket of the block.
    pub fn block_end(&self) -> u64 {
        self.block_start + BLOCK_LEN
    }

    /// How many buckets the view shows.
    pub fn len(&self) -> u64 {
        self.end.saturating_sub(self.start)
    }

    /// Whether the view shows no bucket (never, once [`View::clamped`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the view shows the whole block.
    pub fn is_whole(&self) -> bool {
        self.start == self.block_start && self.end == self.block_end()
    }

    /// The same view moved and shrunk as little as needed to lie in its block and show at
    /// least [`MIN_SPAN`] buckets.
    pub fn clamped(self) -> View {
        let len = self.len().clamp(MIN_SPAN, BLOCK_LEN);
        let start = self.start.clamp(self.block_start, self.block_end() - len);
        View {
            block_start: self.block_start,
            start,
            end: start + len,
        }
    }

    /// Zooms by `factor` (below 1 zooms in, above 1 out) keeping the bucket at fraction
    /// `at` (0 = left edge, 1 = right edge) under the same point, then clamps.
    pub fn zoom(self, factor: f64, at: f64) -> View {
        let factor = if factor.is_finite() && factor > 0.0 {
            factor
        } else {
            1.0
        };
        let at = if at.is_finite() {
            at.clamp(0.0, 1.0)
        } else {
            0.5
        };
        let len = self.len() as f64;
        let anchor = self.start as f64 + at * len;
        let new_len = (len * factor)
            .round()
            .clamp(MIN_SPAN as f64, BLOCK_LEN as f64);
        let start = (anchor - at * new_len)
            .round()
            .clamp(self.block_start as f64, (self.block_end() as f64) - new_len);
        let (start, new_len) = (start as u64, new_len as u64);
        View {
            block_start: self.block_start,
            start,
            end: start + new_len,
        }
        .clamped()
    }

    /// Moves the view by `fraction` of its width (negative: to lower buckets), then clamps.
    pub fn pan(self, fraction: f64) -> View {
        if !fraction.is_finite() {
            return self.clamped();
        }
        let delta = (fraction * self.len() as f64).round();
        let start = (self.start as f64 + delta).max(0.0) as u64;
        View {
            block_start: self.block_start,
            start,
            end: start + self.len(),
        }
        .clamped()
    }

    /// The bucket drawn at `x` on a map `width` pixels wide (clamped into the view).
    pub fn bucket_at(&self, x: f64, width: f64) -> u64 {
        if self.is_empty() {
            return self.start;
        }
        if width.is_nan() || width <= 0.0 || !x.is_finite() {
            return self.start;
        }
        let offset = ((x / width) * self.len() as f64).floor();
        let offset = offset.clamp(0.0, (self.len() - 1) as f64) as u64;
        self.start + offset
    }

    /// The boundary between buckets nearest to `x` on a map `width` pixels wide, as the
    /// first bucket after it: `start` at the left edge, `end` at the right edge (clamped to
    /// them beyond). `None` when `x` or `width` says nothing (not finite, no width).
    pub fn boundary_at(&self, x: f64, width: f64) -> Option<u64> {
        if !(x.is_finite() && width.is_finite() && width > 0.0) {
            return None;
        }
        let offset = ((x / width) * self.len() as f64)
            .round()
            .clamp(0.0, self.len() as f64);
        Some(self.start + offset as u64)
    }

    /// Where the left edge of `bucket` is drawn on a map `width` pixels wide (may lie
    /// outside `0..=width` for a bucket outside the view).
    pub fn x_of(&self, bucket: u64, width: f64) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        (bucket as f64 - self.start as f64) / self.len() as f64 * width
    }

    /// The fraction of the view's width at which `x` lies, in `0..=1`.
    pub fn fraction_at(x: f64, width: f64) -> f64 {
        if width > 0.0 && x.is_finite() {
            (x / width).clamp(0.0, 1.0)
        } else {
            0.5
        }
    }
}

/// How many bins a map `width` pixels wide shows for a view of `len` buckets: one per
/// [`PX_PER_BIN`] pixels, at least one, at most one per bucket and at most [`MAX_BINS`].
/// It is the count that [`Placement::histogram`](ravenshard_model::workspace::Placement::histogram)
/// returns for it, so [`bin_bounds`] matches the histogram's bins.
pub fn bin_count(width: f64, len: u64) -> usize {
    let by_width = if width.is_finite() && width > 0.0 {
        (width / PX_PER_BIN).floor().max(1.0) as u64
    } else {
        1
    };
    by_width.min(len).min(MAX_BINS as u64).max(1) as usize
}

/// Buckets `[start, end)` of bin `k` of `bins` over a view: the histogram's equal widths,
/// the remainder spread evenly.
pub fn bin_bounds(view: &View, bins: usize, k: usize) -> (u64, u64) {
    // A view holds at most 2^20 buckets and there are at most 2^16 bins: far from
    // overflowing u64.
    let bins = bins.max(1) as u64;
    let k = (k as u64).min(bins - 1);
    let len = view.len();
    let edge = |k: u64| view.start + len.saturating_mul(k) / bins;
    (edge(k), edge(k + 1))
}

/// The bin under `x` on a map `width` pixels wide with `bins` bins.
pub fn bin_at(x: f64, width: f64, bins: usize) -> usize {
    let bins = bins.max(1);
    let k = (View::fraction_at(x, width) * bins as f64).floor() as usize;
    k.min(bins - 1)
}

/// The zoom factor for one wheel event: `delta_y` in the event's `delta_mode` (0 pixels,
/// 1 lines, 2 pages). Scrolling down zooms out; one mouse-wheel notch is about 1.4×.
pub fn wheel_factor(delta_y: f64, delta_mode: u32) -> f64 {
    if !delta_y.is_finite() {
        return 1.0;
    }
    let pixels = match delta_mode {
        1 => delta_y * 16.0,
        2 => delta_y * 400.0,
        _ => delta_y,
    };
    2f64.powf(pixels / 200.0).clamp(0.25, 4.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_block_maps_edges_to_buckets() {
        let v = View::whole(0);
        assert_eq!(v.len(), BLOCK_LEN);
        assert_eq!(v.bucket_at(0.0, 1000.0), 0);
        assert_eq!(v.bucket_at(1000.0, 1000.0), BLOCK_LEN - 1);
        assert_eq!(v.bucket_at(500.0, 1000.0), BLOCK_LEN / 2);
        assert_eq!(v.bucket_at(-5.0, 1000.0), 0);
        assert_eq!(v.bucket_at(5.0, 0.0), 0);
        assert_eq!(v.x_of(BLOCK_LEN / 2, 1000.0), 500.0);
        let prefix = View::whole(3 * BLOCK_LEN);
        assert_eq!(prefix.bucket_at(0.0, 100.0), 3 * BLOCK_LEN);
        assert_eq!(prefix.x_of(3 * BLOCK_LEN, 100.0), 0.0);
    }

    #[test]
    fn boundaries_are_the_nearest_edges_between_buckets() {
        let v = View::whole(0);
        assert_eq!(v.boundary_at(0.0, 1024.0), Some(0));
        assert_eq!(v.boundary_at(1024.0, 1024.0), Some(BLOCK_LEN));
        assert_eq!(v.boundary_at(256.0, 1024.0), Some(BLOCK_LEN / 4));
        // 1,024 buckets per pixel: a little under half a pixel rounds down, over it up.
        assert_eq!(v.boundary_at(256.4, 1024.0), Some(BLOCK_LEN / 4 + 410));
        assert_eq!(v.boundary_at(-50.0, 1024.0), Some(0));
        assert_eq!(v.boundary_at(5000.0, 1024.0), Some(BLOCK_LEN));
        assert_eq!(v.boundary_at(f64::NAN, 1024.0), None);
        assert_eq!(v.boundary_at(10.0, 0.0), None);
        assert_eq!(v.boundary_at(10.0, f64::INFINITY), None);
        let prefix = View::whole(3 * BLOCK_LEN);
        assert_eq!(
            prefix.boundary_at(512.0, 1024.0),
            Some(3 * BLOCK_LEN + BLOCK_LEN / 2)
        );
        // The inverse of x_of at whole pixels.
        assert_eq!(v.boundary_at(v.x_of(349_525, 800.0), 800.0), Some(349_525));
    }

    #[test]
    fn zoom_keeps_the_anchor_and_stays_in_the_block() {
        let v = View::whole(0).zoom(0.5, 0.5);
        assert_eq!((v.start, v.end), (BLOCK_LEN / 4, 3 * BLOCK_LEN / 4));
        let left = View::whole(0).zoom(0.5, 0.0);
        assert_eq!((left.start, left.end), (0, BLOCK_LEN / 2));
        let out = v.zoom(100.0, 0.3);
        assert_eq!(out, View::whole(0));
        let right = View::whole(BLOCK_LEN).zoom(0.25, 1.0);
        assert_eq!(right.end, 2 * BLOCK_LEN);
        assert_eq!(right.len(), BLOCK_LEN / 4);
    }

    #[test]
    fn zoom_goes_down_to_single_buckets() {
        let mut v = View::whole(0);
        for _ in 0..40 {
            v = v.zoom(0.5, 0.7);
        }
        assert_eq!(v.len(), MIN_SPAN);
        assert_eq!(v.bucket_at(123.0, 500.0), v.start);
        let again = v.zoom(0.5, 0.5);
        assert_eq!(again.len(), 1);
        assert_eq!(View::whole(0).zoom(f64::NAN, 0.5), View::whole(0));
        assert_eq!(View::whole(0).zoom(-1.0, f64::NAN), View::whole(0));
    }

    #[test]
    fn pan_is_clamped_to_the_block() {
        let v = View::whole(0).zoom(0.5, 0.5);
        let left = v.pan(-10.0);
        assert_eq!((left.start, left.end), (0, BLOCK_LEN / 2));
        let right = v.pan(10.0);
        assert_eq!((right.start, right.end), (BLOCK_LEN / 2, BLOCK_LEN));
        let step = v.pan(0.1);
        assert_eq!(step.start, BLOCK_LEN / 4 + BLOCK_LEN / 20 + 1);
        assert_eq!(step.len(), v.len());
        assert_eq!(v.pan(f64::INFINITY), v);
    }

    #[test]
    fn clamped_repairs_bad_views() {
        let bad = View {
            block_start: BLOCK_LEN,
            start: 5,
            end: 5,
        };
        let fixed = bad.clamped();
        assert_eq!((fixed.start, fixed.end), (BLOCK_LEN, BLOCK_LEN + 1));
        let past = View {
            block_start: 0,
            start: BLOCK_LEN + 10,
            end: BLOCK_LEN + 20,
        }
        .clamped();
        assert_eq!((past.start, past.end), (BLOCK_LEN - 10, BLOCK_LEN));
    }

    #[test]
    fn bin_count_follows_width_and_buckets() {
        assert_eq!(bin_count(800.0, BLOCK_LEN), 400);
        assert_eq!(bin_count(800.0, 10), 10);
        assert_eq!(bin_count(0.0, 10), 1);
        assert_eq!(bin_count(f64::NAN, 10), 1);
        assert_eq!(bin_count(1e9, BLOCK_LEN), MAX_BINS);
        assert_eq!(bin_count(800.0, 0), 1);
    }

    #[test]
    fn bins_match_the_core_histogram() {
        use ravenshard::Topology;
        use ravenshard_model::workspace::{Document, Placement};
        let t = Topology::with_shards(3).unwrap();
        let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
        let p = Placement::new(&docs, &t, &Default::default());
        let v = View::whole(0).zoom(0.37, 0.8);
        let n = bin_count(333.0, v.len());
        let bins = p.histogram(v.start as u32, v.end as u32, n);
        assert_eq!(bins.len(), n);
        for (k, bin) in bins.iter().enumerate() {
            assert_eq!(
                bin_bounds(&v, n, k),
                (u64::from(bin.start), u64::from(bin.end))
            );
        }
        assert_eq!(bin_at(0.0, 333.0, n), 0);
        assert_eq!(bin_at(333.0, 333.0, n), n - 1);
        assert_eq!(bin_at(-3.0, 333.0, n), 0);
    }

    #[test]
    fn wheel_factor_zooms_out_when_scrolling_down() {
        assert!(wheel_factor(100.0, 0) > 1.0);
        assert!(wheel_factor(-100.0, 0) < 1.0);
        assert_eq!(wheel_factor(0.0, 0), 1.0);
        assert_eq!(wheel_factor(1e9, 0), 4.0);
        assert_eq!(wheel_factor(f64::NAN, 0), 1.0);
        assert!((wheel_factor(3.0, 1) - wheel_factor(48.0, 0)).abs() < 1e-12);
    }
}
