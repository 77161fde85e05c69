//! A workspace of a live cluster's bucket statistics instead of documents: no IDs, just the
//! documents and bytes per bucket (or per range of buckets) that RavenDB reports, placed by
//! the database record. The aggregate views (bucket map, shards, nodes × shards, blocks,
//! obese buckets, resharding) are summed from them as from documents; the views that need
//! IDs (documents, anchored groups, duplicates, explain) are empty.

use super::{loads, Locator, ObeseBucket, Placement, PlacementOptions, Totals};
use ravenshard::Topology;
use ravenshard_reshard::{BucketLoad, BucketStatistics, StatisticsError, Workload};
use std::sync::{Arc, OnceLock};

/// What a placement of bucket statistics keeps besides the views: the statistics (to follow
/// a new topology) and their load (for plans and balances, with its ranges).
#[derive(Debug, Clone)]
pub(super) struct Statistics {
    pub(super) statistics: Arc<BucketStatistics>,
    pub(super) load: Arc<BucketLoad>,
}

impl Placement {
    /// The placement of a cluster's bucket statistics by `topology` (the database record
    /// they were taken with): every aggregate view as for documents, with each range's
    /// figures at its first bucket (narrowed to the shards its statistics name, as
    /// [`Workload::from_statistics`] does). It has no documents: [`Placement::len`] is 0 and
    /// the documents, groups and duplicates are empty. A bucket is obese only when its
    /// figures are per bucket.
    ///
    /// # Errors
    ///
    /// When a range lies in a prefix block that no prefix of `topology` owns.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::BucketStatistics;
    /// use ravenshard_model::workspace::Placement;
    /// use ravenshard::Topology;
    ///
    /// let s = BucketStatistics::read([("a.json", r#"{"BucketRanges": {"0": {"ShardNumbers": [0],
    ///   "FromBucket": 0, "ToBucket": 32767, "NumberOfBuckets": 9, "RangeSize": 900,
    ///   "DocumentsCount": 9}}}"#)]).unwrap();
    /// let p = Placement::from_statistics(&s, &Topology::with_shards(2).unwrap(), &Default::default()).unwrap();
    /// assert_eq!((p.shards()[0].documents, p.shards()[0].bytes), (9, 900));
    /// assert_eq!((p.len(), p.totals().placed, p.totals().buckets_used), (0, 9, 9));
    /// assert_eq!(p.statistics().unwrap().coarse_ranges(), 1);
    /// assert_eq!(p.bucket_load().ranges().count(), 1);
    /// ```
    pub fn from_statistics(
        statistics: &BucketStatistics,
        topology: &Topology,
        options: &PlacementOptions,
    ) -> Result<Placement, StatisticsError> {
        let load = Workload::from_statistics(statistics, topology)?.load;
        let total = load.total();
        let obese_threshold = options.obese_threshold_for(total.docs);
        let mut obese_buckets: Vec<ObeseBucket> = statistics
            .ranges()
            .iter()
            .filter(|r| r.resolution() == 1 && r.docs > obese_threshold)
            .map(|r| ObeseBucket {
                bucket: r.from_bucket,
                shard: topology.shard_for_bucket(r.from_bucket),
                documents: r.docs,
                bytes: r.bytes,
            })
            .collect();
        obese_buckets.sort_by(|a, b| b.documents.cmp(&a.documents).then(a.bucket.cmp(&b.bucket)));
        let mut placement = Placement::new(&[], topology, options);
        // Each entry (a bucket, or a range standing at its first bucket) is one per-bucket
        // aggregate: the views sum them as they sum documents.
        placement.loads.buckets = load
            .buckets()
            .map(|(bucket, amount)| {
                let documents = u32::try_from(amount.docs).unwrap_or(u32::MAX);
                let entry = loads::BucketLoad::new(documents, 0, amount.bytes);
                (bucket, entry)
            })
            .collect();
        placement.loads.regroup(topology, &Locator::new(topology));
        placement.summarise_loads(topology);
        placement.totals = Totals {
            documents: total.docs,
            placed: total.docs,
            bytes: total.bytes,
            buckets_used: statistics.ranges().iter().map(|r| r.buckets_used).sum(),
            ..Totals::default()
        };
        placement.obese_threshold = obese_threshold;
        placement.obese_buckets = OnceLock::from(obese_buckets);
        placement.statistics = Some(Statistics {
            statistics: Arc::new(statistics.clone()),
            load: Arc::new(load),
        });
        Ok(placement)
    }

    /// The bucket statistics this placement was made from, if it was made from statistics
    /// rather than documents ([`Placement::from_statistics`]).
    pub fn statistics(&self) -> Option<&BucketStatistics> {
        self.statistics.as_ref().map(|s| &*s.statistics)
    }
}
