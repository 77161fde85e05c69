//! Large line inputs on every core (`--threads`): the input is cut into blocks of whole
//! lines ([`for_each_block`]), each block is a job of a rayon pool, and the results are
//! handed on in input order, so the output is the same bytes whatever the number of
//! threads.
//!
//! The thread that reads the input also hands the results on (writes the answers, say):
//! it reads ahead while the pool works, up to a few blocks per thread, and hands on each
//! result as soon as it and all before it are done. There is no barrier between groups of
//! blocks, so no thread waits for the slowest block of a batch, and memory stays flat: at
//! most [`IN_FLIGHT_PER_THREAD`] blocks per thread are read and not yet handed on.

use crate::Fatal;
use ravenshard::lines::{for_each_block, Stop};
use std::collections::VecDeque;
use std::io::Read;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Mutex};

/// The bytes of one block: big enough to amortise the hand-over, small enough that the
/// blocks in flight stay in cache and memory stays flat.
const BLOCK_LEN: usize = 1 << 20;
/// Blocks per thread read and not yet handed on: enough that a thread finds a block
/// waiting when it finishes one, and that a slow block does not stop the reading.
const IN_FLIGHT_PER_THREAD: usize = 3;

/// The threads the bulk commands work on.
pub struct Pool {
    threads: usize,
    /// `None` with one thread: the blocks are worked on where they are read.
    pool: Option<rayon::ThreadPool>,
}

/// A block worked on: where it is in the input, its result (or the panic of its job), and
/// its bytes back for reuse.
struct Finished<T> {
    number: usize,
    result: std::thread::Result<T>,
    block: Vec<u8>,
}

/// Results put back in input order.
struct InOrder<T> {
    /// The number of the next block to hand on.
    next: usize,
    /// The results of blocks `next..`, `None` while a block is being worked on.
    waiting: VecDeque<Option<T>>,
    /// Blocks worked on, for reuse.
    free: Vec<Vec<u8>>,
}

impl<T> InOrder<T> {
    /// Takes a finished block, and hands on the results that are now next in order.
    fn take<E>(
        &mut self,
        finished: Finished<T>,
        sink: &mut impl FnMut(T) -> Result<(), E>,
    ) -> Result<(), E> {
        self.free.push(finished.block);
        let result = finished.result.unwrap_or_else(|panic| resume_unwind(panic));
        let at = finished.number - self.next;
        if self.waiting.len() <= at {
            self.waiting.resize_with(at + 1, || None);
        }
        if let Some(slot) = self.waiting.get_mut(at) {
            *slot = Some(result);
        }
        while let Some(Some(_)) = self.waiting.front() {
            if let Some(Some(result)) = self.waiting.pop_front() {
                self.next += 1;
                sink(result)?;
            }
        }
        Ok(())
    }
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
        sink: impl FnMut(T) -> Result<(), E>,
    ) -> Result<(), Stop<E>> {
        self.run_with(input, || (), |_, block| work(block), sink)
            .map(drop)
    }

    /// [`run`](Self::run) with a state per thread: `work` is given one made by `state`
    /// (each is used by one block at a time, and by the blocks of one thread, mostly), for
    /// what every block adds to and need not be in input order, such as counters. The
    /// states are returned at the end, at most one per thread.
    pub fn run_with<S: Send, T: Send, E>(
        &self,
        input: impl Read,
        state: impl Fn() -> S + Sync,
        work: impl Fn(&mut S, &[u8]) -> T + Sync,
        mut sink: impl FnMut(T) -> Result<(), E>,
    ) -> Result<Vec<S>, Stop<E>> {
        let Some(pool) = &self.pool else {
            let mut one = state();
            for_each_block(input, BLOCK_LEN, |block| {
                sink(work(&mut one, &block))?;
                Ok(Some(block))
            })?;
            return Ok(vec![one]);
        };
        let most = self.threads * IN_FLIGHT_PER_THREAD;
        let kept = Mutex::new(Vec::new());
        let (work, state, states) = (&work, &state, &kept);
        let (done, finished) = mpsc::channel::<Finished<T>>();
        let mut order = InOrder {
            next: 0,
            waiting: VecDeque::with_capacity(most),
            free: Vec::with_capacity(most),
        };
        pool.in_place_scope_fifo(|scope| {
            let mut read = 0;
            for_each_block(input, BLOCK_LEN, |block| {
                let (number, done) = (read, done.clone());
                read += 1;
                scope.spawn_fifo(move |_| {
                    let mut own = states.lock().ok().and_then(|mut s| s.pop());
                    let result = catch_unwind(AssertUnwindSafe(|| {
                        work(own.get_or_insert_with(state), &block)
                    }));
                    if let (Some(own), Ok(mut states)) = (own, states.lock()) {
                        states.push(own);
                    }
                    // The receiver lives until every job has sent.
                    let _ = done.send(Finished {
                        number,
                        result,
                        block,
                    });
                });
                // Hand on what is done; wait while the most blocks are in flight.
                loop {
                    let next = match read - order.next >= most {
                        true => finished.recv().ok(),
                        false => finished.try_recv().ok(),
                    };
                    let Some(next) = next else { break };
                    order.take(next, &mut sink)?;
                }
                Ok(order.free.pop())
            })?;
            while order.next < read {
                let Ok(next) = finished.recv() else { break };
                order.take(next, &mut sink).map_err(Stop::By)?;
            }
            Ok(())
        })?;
        Ok(kept.into_inner().unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// About 7 MB of numbered lines: several blocks.
    fn text() -> Vec<u8> {
        (0..600_000u32)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect()
    }

    /// The first line of each block, and the lines counted by the threads' states, with
    /// the first block the slowest: the blocks after it finish before it does.
    fn first_lines(threads: usize, text: &[u8]) -> (Vec<Vec<u8>>, Vec<u64>) {
        let pool = Pool::new(Some(threads)).expect("a pool");
        let mut firsts = Vec::new();
        let work = |lines: &mut u64, block: &[u8]| {
            *lines += block.iter().filter(|&&b| b == b'\n').count() as u64;
            let slow = block.starts_with(b"line 0\n");
            std::thread::sleep(Duration::from_millis(if slow { 40 } else { 1 }));
            block.split(|&b| b == b'\n').next().map(<[u8]>::to_vec)
        };
        let sink = |first: Option<Vec<u8>>| {
            firsts.extend(first);
            Ok::<(), ()>(())
        };
        let states = pool.run_with(text, || 0, work, sink);
        (firsts, states.unwrap_or_default())
    }

    #[test]
    fn results_come_in_input_order_whatever_order_the_blocks_finish_in() {
        let text = text();
        let (one, counted) = first_lines(1, &text);
        assert!(one.len() > 5, "{} blocks", one.len());
        assert_eq!(counted, [600_000]);
        for threads in [2, 3, 4] {
            let (firsts, counted) = first_lines(threads, &text);
            assert_eq!(firsts, one, "{threads} threads");
            assert!(counted.len() <= threads, "{} states", counted.len());
            assert_eq!(counted.iter().sum::<u64>(), 600_000, "{threads} threads");
        }
    }

    #[test]
    fn an_error_of_the_sink_stops_the_reading() {
        let text = text();
        for threads in [1, 2] {
            let pool = Pool::new(Some(threads)).expect("a pool");
            let mut handed = 0;
            let sink = |_: usize| {
                handed += 1;
                if handed == 2 {
                    return Err("stdout closed");
                }
                Ok(())
            };
            let ran = pool.run(&text[..], |block| block.len(), sink);
            assert!(matches!(ran, Err(Stop::By("stdout closed"))), "{threads}");
            assert_eq!(handed, 2);
        }
    }
}
