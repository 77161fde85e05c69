//! The Advisor's side of its worker ([`Advisor`]): it holds the export last advised on.

use crate::workers::advisor::protocol::{AdviseRequest, AdvisorReply, AdvisorRequest};
use crate::workers::progress::{Chunks, Reporter, Stage};
use crate::workers::transport::{Channel, Role, Scope};
use gloo::worker::HandlerId;
use ravenshard::Topology;
use ravenshard_advise::{Advice, ExportReader, ReadExport, Workload};
use ravenshard_import::Format;
use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;

/// The Advisor's worker: the export last advised on (with its run), for
/// [`AdvisorRequest::Rewrites`].
#[derive(Default)]
pub struct Advisor {
    export: Rc<RefCell<Option<(u64, ReadExport)>>>,
}

impl Role for Advisor {
    type Request = AdvisorRequest;
    type Reply = AdvisorReply;
    const CHANNEL: Channel = Channel::Advisor;

    fn start(_scope: &Scope<Self>) -> Self {
        Self::default()
    }

    fn received(&mut self, scope: &Scope<Self>, request: AdvisorRequest, id: HandlerId) {
        match request {
            AdvisorRequest::Advise(request) => {
                let (scope, export) = (scope.clone(), Rc::clone(&self.export));
                wasm_bindgen_futures::spawn_local(async move {
                    let run = request.run;
                    let reply = match advise(&scope, id, request, &export).await {
                        Ok(advice) => AdvisorReply::Advice {
                            run,
                            advice: Box::new(advice),
                        },
                        Err(message) => AdvisorReply::Failed { run, message },
                    };
                    scope.respond(id, reply);
                });
            }
            AdvisorRequest::Rewrites {
                run,
                collection,
                field,
            } => scope.respond(id, self.rewrites(run, collection, field)),
        }
    }
}

impl Advisor {
    fn rewrites(&self, run: u64, collection: String, field: String) -> AdvisorReply {
        match self.export.borrow().as_ref() {
            Some((advised, export)) if *advised == run => {
                let rewrites = export
                    .anchor_rewrites(&collection, &field)
                    .into_iter()
                    .map(|r| (r.from, r.to))
                    .collect();
                AdvisorReply::Rewrites {
                    run,
                    collection,
                    field,
                    rewrites,
                }
            }
            _ => AdvisorReply::Failed {
                run,
                message: "the worker no longer holds this export (it was restarted): run the advisor again, then apply.".into(),
            },
        }
    }
}

/// Reads the export, then advises: the advice, or why not.
async fn advise(
    scope: &Scope<Advisor>,
    id: HandlerId,
    request: AdviseRequest,
    kept: &RefCell<Option<(u64, ReadExport)>>,
) -> Result<Advice, String> {
    let topology = Topology::from_json(&request.configuration)
        .map_err(|e| format!("the configuration in force: {e}"))?;
    let workload = Workload::parse(&request.queries, &request.loads).map_err(|e| e.to_string())?;
    kept.borrow_mut().take();
    let mut reporter = Reporter::new(scope, id, request.run, Stage::Reading);
    let export = read(&request, &mut reporter).await?;
    reporter.stage(Stage::Scoring);
    let total = export.documents() as u64;
    reporter.report(0, Some(total), true);
    let advice = export
        .advise(&topology, &workload, &mut |p| {
            reporter.report(p.done, Some(p.total), false);
            ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
    reporter.report(total, Some(total), true);
    *kept.borrow_mut() = Some((request.run, export));
    Ok(advice)
}

/// Reads the export chunk by chunk.
async fn read(
    request: &AdviseRequest,
    reporter: &mut Reporter<'_, Advisor>,
) -> Result<ReadExport, String> {
    let name = &request.name;
    let chunks = Chunks::open(&request.url).await?;
    let mut reader: Option<ExportReader> = None;
    let mut bytes = 0u64;
    let in_file = |e: &dyn std::fmt::Display, format: Option<Format>| match format {
        Some(format) => format!("{name}: {e} (read as {format})"),
        None => format!("{name}: {e}"),
    };
    while let Some(chunk) = chunks.next().await? {
        let reader = reader.get_or_insert_with(|| {
            let format = Format::detect(Some(name), &chunk);
            ExportReader::new(Some(format), Some(request.size))
        });
        // A stream's chunk can be the whole file: push it in the importer's slices,
        // reporting after each.
        let mut rest = chunk.as_slice();
        while !rest.is_empty() {
            let (part, tail) = rest.split_at(reader.next_chunk_len().clamp(1, rest.len()));
            reader
                .push(part)
                .map_err(|e| in_file(&e, reader.format()))?;
            bytes += part.len() as u64;
            reporter.report(bytes, Some(request.size), false);
            rest = tail;
        }
    }
    reporter.report(bytes, Some(request.size), true);
    let reader = reader.unwrap_or_else(|| ExportReader::new(Some(Format::Text), Some(0)));
    let format = reader.format();
    reader.read().map_err(|e| in_file(&e, format))
}
