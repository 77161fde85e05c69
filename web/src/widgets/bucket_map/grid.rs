//! The heatmap's grid, free of the DOM: a view's buckets folded into rows of cells (each
//! cell one bin of the host's histogram), where a cell or a bucket lies on the canvas, and
//! the colour a cell's load gets on the perceptual scale.

use colorous::VIRIDIS;

/// Cells per row at most.
pub(super) const COLUMNS: u64 = 128;
/// Rows at most: a whole block is 128 × 64 cells of 128 buckets (a row is 16,384 buckets).
pub(super) const ROWS: u64 = 64;
/// How much a click on a cell of several buckets zooms in: the view becomes the sixteenth
/// of it that holds the cell (a whole block, then 65,536 buckets, then 4,096 buckets of
/// one cell each, where a click selects the bucket).
pub(super) const DRILL: u64 = 16;

/// A view of `len` buckets folded into `rows` rows of `columns` cells (the last row may
/// be short): `cells` bins, as the host's histogram divides the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Grid {
    /// Buckets in the view.
    pub(super) len: u64,
    /// Bins asked of the host: at most one per bucket and `COLUMNS × ROWS`.
    pub(super) cells: u64,
    /// Cells per row.
    pub(super) columns: u64,
    /// Rows.
    pub(super) rows: u64,
}

impl Grid {
    /// The grid of a view of `len` buckets.
    pub(super) fn of(len: u64) -> Grid {
        let len = len.max(1);
        let cells = len.min(COLUMNS * ROWS);
        let columns = cells.min(COLUMNS);
        Grid {
            len,
            cells,
            columns,
            rows: cells.div_ceil(columns),
        }
    }

    /// Whether each cell is one bucket (a click selects it rather than zooming in).
    pub(super) fn single_buckets(&self) -> bool {
        self.cells == self.len
    }

    /// The cell at `(x, y)` on a canvas `width × height` CSS pixels, if there is one.
    pub(super) fn cell_at(&self, x: f64, y: f64, width: f64, height: f64) -> Option<u64> {
        let ok = |v: f64, of: f64| v.is_finite() && of > 0.0 && v >= 0.0 && v < of;
        if !(ok(x, width) && ok(y, height)) {
            return None;
        }
        let column = ((x / width) * self.columns as f64).floor() as u64;
        let row = ((y / height) * self.rows as f64).floor() as u64;
        let cell = row.min(self.rows - 1) * self.columns + column.min(self.columns - 1);
        (cell < self.cells).then_some(cell)
    }

    /// The cell that holds the bucket `offset` buckets into the view: the last `k` whose
    /// first bucket, `len × k / cells`, is at most `offset`.
    pub(super) fn cell_of(&self, offset: u64) -> u64 {
        let offset = offset.min(self.len - 1);
        ((offset + 1) * self.cells).div_ceil(self.len) - 1
    }

    /// The first bucket of cell `k`, as an offset into the view.
    pub(super) fn edge(&self, k: u64) -> u64 {
        self.len * k.min(self.cells) / self.cells
    }

    /// Where a boundary before the bucket `offset` into the view is drawn: its row and the
    /// x of its vertical stroke as a fraction of the row (inside a cell that the boundary
    /// splits, in proportion).
    pub(super) fn boundary(&self, offset: u64) -> (u64, f64) {
        let k = self.cell_of(offset);
        let (lo, hi) = (self.edge(k), self.edge(k + 1));
        let within = (offset - lo) as f64 / (hi - lo).max(1) as f64;
        let column = (k % self.columns) as f64 + within;
        (k / self.columns, column / self.columns as f64)
    }
}

/// The view a click at `bucket` drills down to: the `1 / DRILL` of the view of `len`
/// buckets from `start` that holds it (aligned to the view's start), or `None` when the
/// view is already a single bucket.
pub(super) fn drill(start: u64, len: u64, bucket: u64) -> Option<(u64, u64)> {
    if len <= 1 {
        return None;
    }
    let part = (len / DRILL).max(1);
    let index = (bucket.saturating_sub(start) / part).min(len.div_ceil(part) - 1);
    let lo = start + index * part;
    Some((lo, (lo + part).min(start + len)))
}

/// The colour of a cell holding `value` (documents or bytes) when the fullest holds `most`:
/// viridis at `ln(1 + value) / ln(1 + most)`, so that a few documents still show beside
/// thousands; `None` for an empty cell (drawn in the page's background).
pub(super) fn heat_colour(value: u64, most: u64) -> Option<[u8; 3]> {
    if value == 0 || most == 0 {
        return None;
    }
    let t = ((value as f64).ln_1p() / (most as f64).ln_1p()).clamp(0.0, 1.0);
    let c = VIRIDIS.eval_continuous(t);
    Some([c.r, c.g, c.b])
}

/// The legend's gradient: a CSS `linear-gradient` through `stops` points of the scale.
pub(super) fn legend_gradient(stops: usize) -> String {
    let stops = stops.max(2);
    let points: Vec<String> = (0..stops)
        .map(|i| format!("#{:x}", VIRIDIS.eval_rational(i, stops)))
        .collect();
    format!("linear-gradient(to right, {})", points.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_block_folds_into_128_by_64_cells_of_128_buckets() {
        let g = Grid::of(1 << 20);
        assert_eq!((g.cells, g.columns, g.rows), (8192, 128, 64));
        assert!(!g.single_buckets());
        assert_eq!(g.edge(1), 128);
        assert_eq!(g.cell_of(127), 0);
        assert_eq!(g.cell_of(128), 1);
        assert_eq!(g.cell_of((1 << 20) - 1), 8191);
        // A row is 16,384 buckets: bucket 16,384 starts row 1 at the left edge.
        assert_eq!(g.boundary(16_384), (1, 0.0));
        // A boundary in the middle of cell 1 is drawn half-way through it.
        assert_eq!(g.boundary(192), (0, 1.5 / 128.0));
    }

    #[test]
    fn small_views_have_one_cell_per_bucket_and_a_short_last_row() {
        let g = Grid::of(300);
        assert_eq!((g.cells, g.columns, g.rows), (300, 128, 3));
        assert!(g.single_buckets());
        // Row 2 holds cells 256..300: 44 of its 128 columns.
        assert_eq!(g.cell_at(100.0, 250.0, 128.0, 256.0), None);
        assert_eq!(g.cell_at(10.0, 250.0, 128.0, 256.0), Some(266));
        assert_eq!(g.cell_at(10.0, 10.0, 128.0, 256.0), Some(10));
        assert_eq!(g.cell_at(-1.0, 10.0, 128.0, 256.0), None);
        assert_eq!(g.cell_at(f64::NAN, 10.0, 128.0, 256.0), None);
        assert_eq!(g.cell_at(10.0, 10.0, 0.0, 256.0), None);
        let one = Grid::of(1);
        assert_eq!((one.cells, one.columns, one.rows), (1, 1, 1));
        assert_eq!(Grid::of(0), one);
    }

    #[test]
    fn uneven_cells_match_the_histograms_edges() {
        // 10,000 buckets in 8,192 cells: the host's edges are len × k / cells.
        let g = Grid::of(10_000);
        for k in [0, 1, 4095, 8191] {
            let lo = g.edge(k);
            assert_eq!(lo, 10_000 * k / 8192);
            assert_eq!(g.cell_of(lo), k);
            assert_eq!(g.cell_of(g.edge(k + 1) - 1), k);
        }
    }

    #[test]
    fn drilling_takes_the_sixteenth_that_holds_the_bucket() {
        assert_eq!(drill(0, 1 << 20, 100_000), Some((65_536, 131_072)));
        assert_eq!(drill(65_536, 65_536, 70_000), Some((69_632, 73_728)));
        assert_eq!(
            drill(10, 20, 29),
            Some((29, 30)),
            "fewer than 16 buckets a part: one"
        );
        assert_eq!(drill(10, 5, 14), Some((14, 15)));
        assert_eq!(drill(7, 1, 7), None);
        // A bucket past the view stays in its last part.
        assert_eq!(drill(0, 32, 99), Some((30, 32)));
    }

    #[test]
    fn colours_run_from_dark_to_light_on_a_log_scale() {
        assert_eq!(heat_colour(0, 10), None);
        assert_eq!(heat_colour(5, 0), None);
        let low = heat_colour(1, 1_000).unwrap();
        let high = heat_colour(1_000, 1_000).unwrap();
        assert_eq!(high, [0xfd, 0xe7, 0x25], "viridis' last colour");
        let luma = |c: [u8; 3]| 0.2126 * c[0] as f64 + 0.7152 * c[1] as f64 + 0.0722 * c[2] as f64;
        assert!(luma(low) < luma(heat_colour(30, 1_000).unwrap()));
        assert!(luma(heat_colour(30, 1_000).unwrap()) < luma(high));
        let g = legend_gradient(3);
        assert!(g.starts_with("linear-gradient(to right, #440154"), "{g}");
        assert!(g.ends_with("#fde725)"), "{g}");
    }
}
