//! Printing the results of emission's steps.
