//! Large line inputs on every core (`--threads`): the input is cut into blocks of whole
//! lines ([`for_each_block`]), a batch of blocks is worked on by a rayon pool, and the
//! results are handed on in input order, so the output is the same bytes whatever the
//! number of threads.

use crate::Fatal;
use ravenshard::lines::{for_each_block, Stop};
use rayon::prelude::*;
use std::io::Read;

/// The bytes of one block: big enough to amortise the hand-over, small enough that a batch
/// of them stays in cache and memory stays flat.
const BLOCK_LEN: usize = 1 << 20;
/// Blocks per thread in a batch, so a slow block does not idle the other threads long.
const BLOCKS_PER_THREAD: usize = 2;

/// A batch being worked on: its results, and its blocks back for reuse.
type Running<'s, T> = std::thread::ScopedJoinHandle<'s, (Vec<T>, Vec<Vec<u8>>)>;

/// The threads the bulk commands work on.
pub struct Pool {
    threads: usize,
    /// `None` with one thread: the blocks are worked on where they are read.
    pool: Option<rayon::ThreadPool>,
}

impl Pool {
    /// A pool of `threads` threads (`None`: as many as the machine has cores).
    pub fn new(threads: Option<usize>) -> Result<Pool, Fatal> {
        let threads = match threads {
            Some(0) => {
                return Err(Fatal::Usage(
                    "--threads 0: give at least 1 (or leave it out for every core).".into(),
                ))
            }
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, usize::from),
        };
        let pool = match threads {
            1 => None,
            n => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| Fatal::Usage(format!("--threads {n}: {e}")))?,
            ),
        };
        Ok(Pool { threads, pool })
    }

    /// Runs `work` on every block of whole lines of `input` (on the pool's threads) and
    /// hands the results to `sink` in input order.
    pub fn run<T: Send, E>(
        &self,
        input: impl Read,
        work: impl Fn(&[u8]) -> T + Sync,
        mut sink: impl FnMut(T) -> Result<(), E>,
    ) -> Result<(), Stop<E>> {
        let Some(pool) = &self.pool else {
            return for_each_block(input, BLOCK_LEN, |block| {
                sink(work(&block))?;
                Ok(Some(block))
            });
        };
        let batch_len = self.threads * BLOCKS_PER_THREAD;
        let work = &work;
        // A batch is worked on (by a scoped thread that hands it to the pool) while this
        // thread writes the results of the one before and reads the next.
        std::thread::scope(|scope| {
            let mut batch: Vec<Vec<u8>> = Vec::with_capacity(batch_len);
            let mut free: Vec<Vec<u8>> = Vec::new();
            let mut running: Option<Running<'_, T>> = None;
            let mut hand_over = |running: Option<Running<'_, T>>, free: &mut Vec<Vec<u8>>| {
                let Some(running) = running else {
                    return Ok(());
                };
                let (results, blocks) = running
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                free.extend(blocks);
                results.into_iter().try_for_each(&mut sink)
            };
            let start = |batch: Vec<Vec<u8>>| -> Running<'_, T> {
                scope.spawn(move || {
                    let results = pool.install(|| batch.par_iter().map(|b| work(b)).collect());
                    (results, batch)
                })
            };
            for_each_block(input, BLOCK_LEN, |block| {
                batch.push(block);
                if batch.len() == batch_len {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(batch_len));
                    let before = running.replace(start(full));
                    hand_over(before, &mut free)?;
                }
                Ok(free.pop())
            })?;
            let before = running.take();
            hand_over(before, &mut free).map_err(Stop::By)?;
            let last = start(batch);
            hand_over(Some(last), &mut free).map_err(Stop::By)
        })
    }
}
