//! Quota file formats (being written).
#![forbid(unsafe_code)]
#![warn(missing_docs)]
