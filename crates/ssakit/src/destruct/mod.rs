//! Out-of-SSA translation (chapter section 13.6, "Destrucción de SSA", and
//! section 13.7, "Secuencializar copias paralelas").

pub mod compact;
pub mod critical_edges;
pub mod fresh;
pub mod parallel_copy;
pub mod phi_webs;
pub mod to_cssa;
