//! Out-of-SSA translation (chapter section 13.6, "Destrucción de SSA", and
//! 13.7, "Secuencializar copias paralelas").

pub mod parallel_copy;
