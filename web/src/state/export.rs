//! What the studio exports from the placement in force: the report JSON and the CSV, written
//! by the model ([`ravenshard_model::export`]).

pub use ravenshard_model::export::{
    documents_csv, report_json, write_csv_rows, CSV_HEADER, REPORT_GROUPS, REPORT_MEMBERS,
};
