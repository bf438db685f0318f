//! Exception landing pads: the call-site tables of `.gcc_except_table`,
//! found through each `.eh_frame` FDE's LSDA pointer (the "language
//! specific data area" of the Itanium C++ ABI's zero-cost exceptions,
//! which GCC, Clang and rustc all emit). Section 13.8 of the chapter asks
//! for every path of a binary's code; a landing pad is reached only
//! through these tables, when a call unwinds.
//!
//! An LSDA is, in the layout of libgcc's `parse_lsda_header`:
//!
//! ```text
//! u8 lpstart_enc; [lpstart, encoded]   // absent when 0xff (DW_EH_PE_omit)
//! u8 ttype_enc;   [uleb128 ttype_off]  // absent when 0xff
//! u8 cs_enc;      uleb128 cs_table_len
//! cs_table_len bytes of entries, each:
//!     cs_start, cs_len, cs_lp (encoded by cs_enc), uleb128 action
//! ```
//!
//! A call inside `[func + cs_start, func + cs_start + cs_len)` that
//! unwinds lands at `lpstart + cs_lp` (`lpstart` the function's start by
//! default); `cs_lp = 0` means no pad (the exception goes on). The pad is
//! entered with the exception object's pointer in `rax` and the selector
//! in `rdx` (the System V ABI's `__builtin_eh_return_data_regno(0)` and
//! `(1)`), both written by the call.
//!
//! Malformed tables never stop the reading of a binary: an LSDA that
//! cannot be read whole (a field past its section, an encoding not
//! understood) is skipped and counted ([`ExceptTables::skipped`]).

use gimli::{EndianSlice, LittleEndian, Reader};

/// `DW_EH_PE_omit`: the field is absent.
const OMIT: u8 = 0xff;

/// One call-site entry with a landing pad: calls in `[start, end)` that
/// unwind land at `pad`.
///
/// ```
/// let s = ssakit_x86::except::CallSite { start: 0x10, end: 0x20, pad: 0x40 };
/// assert!(s.start < s.end);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// First byte of the range.
    pub start: u64,
    /// One past its last byte.
    pub end: u64,
    /// The landing pad's address.
    pub pad: u64,
}

/// The call sites with a landing pad of a whole binary, by address, and
/// the LSDAs that could not be read.
///
/// ```
/// let mut t = ssakit_x86::except::ExceptTables::default();
/// t.add_lsda(&[0xff, 0xff, 0x01, 4, 0, 8, 0x10, 0], 0x1000, 0);
/// t.finish();
/// assert_eq!(t.pad_of(0x1004), Some(0x1010));
/// assert_eq!(t.pad_of(0x1008), None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ExceptTables {
    sites: Vec<CallSite>,
    /// LSDAs skipped as malformed.
    pub skipped: usize,
}

impl ExceptTables {
    /// Reads the LSDA whose bytes start `data` (the rest of its section:
    /// `data_addr` is their address, for `pcrel` fields) for the function
    /// starting at `func`; a malformed one is counted in
    /// [`ExceptTables::skipped`].
    ///
    /// ```
    /// let mut t = ssakit_x86::except::ExceptTables::default();
    /// t.add_lsda(&[0xff, 0xff, 0x01, 9], 0x1000, 0); // 9 bytes of entries announced, none there
    /// assert_eq!(t.skipped, 1);
    /// ```
    pub fn add_lsda(&mut self, data: &[u8], func: u64, data_addr: u64) {
        let before = self.sites.len();
        if read_lsda(data, func, data_addr, &mut self.sites).is_none() {
            self.sites.truncate(before);
            self.skipped += 1;
        }
    }

    /// Sorts the call sites by address (after the last
    /// [`ExceptTables::add_lsda`]).
    ///
    /// ```
    /// let mut t = ssakit_x86::except::ExceptTables::default();
    /// t.finish();
    /// assert_eq!(t.pads(), 0);
    /// ```
    pub fn finish(&mut self) {
        self.sites.sort_by_key(|s| (s.start, s.end));
    }

    /// The landing pad of a call at `addr`, if a call-site entry with one
    /// covers it.
    ///
    /// ```
    /// let t = ssakit_x86::except::ExceptTables::default();
    /// assert_eq!(t.pad_of(0x1000), None);
    /// ```
    pub fn pad_of(&self, addr: u64) -> Option<u64> {
        let i = self.sites.partition_point(|s| s.start <= addr);
        // Entries of one LSDA do not overlap; those of two functions'
        // LSDAs do not either, so the last one starting at or before
        // `addr` is the only candidate.
        let s = self.sites.get(i.checked_sub(1)?)?;
        (addr < s.end).then_some(s.pad)
    }

    /// How many call-site entries have a landing pad.
    ///
    /// ```
    /// let mut t = ssakit_x86::except::ExceptTables::default();
    /// t.add_lsda(&[0xff, 0xff, 0x01, 8, 0, 4, 0, 0, 4, 4, 0x20, 1], 0x1000, 0);
    /// assert_eq!(t.pads(), 1); // the first entry has no pad
    /// ```
    pub fn pads(&self) -> usize {
        self.sites.len()
    }
}

/// Reads a value of the DWARF pointer encoding `enc` (format in the low
/// nibble, `pcrel` application in bit 4; `field` is the address of the
/// value, for `pcrel`). `None` for an encoding not understood or a value
/// past the data.
fn read_encoded(r: &mut EndianSlice<'_, LittleEndian>, enc: u8, field: u64) -> Option<u64> {
    let v = match enc & 0x0f {
        0x00 | 0x04 => r.read_u64().ok()?,
        0x01 => r.read_uleb128().ok()?,
        0x02 => r.read_u16().ok()? as u64,
        0x03 => r.read_u32().ok()? as u64,
        0x09 => r.read_sleb128().ok()? as u64,
        0x0a => r.read_i16().ok()? as i64 as u64,
        0x0b => r.read_i32().ok()? as i64 as u64,
        0x0c => r.read_i64().ok()? as u64,
        _ => return None,
    };
    match enc & 0x70 {
        0x00 => Some(v),
        0x10 => Some(field.wrapping_add(v)),
        _ => None,
    }
}

/// Reads one LSDA into `out` (its entries with a pad); `None` if it is
/// malformed.
fn read_lsda(data: &[u8], func: u64, data_addr: u64, out: &mut Vec<CallSite>) -> Option<()> {
    let mut r = EndianSlice::new(data, LittleEndian);
    let at = |r: &EndianSlice<'_, LittleEndian>| data_addr + (data.len() - r.len()) as u64;
    let lpstart_enc = r.read_u8().ok()?;
    let lpstart = if lpstart_enc == OMIT {
        func
    } else {
        let f = at(&r);
        read_encoded(&mut r, lpstart_enc, f)?
    };
    if r.read_u8().ok()? != OMIT {
        r.read_uleb128().ok()?;
    }
    let cs_enc = r.read_u8().ok()?;
    let len = usize::try_from(r.read_uleb128().ok()?).ok()?;
    if len > r.len() {
        return None;
    }
    let mut table = r.split(len).ok()?;
    while !table.is_empty() {
        let start = read_encoded(&mut table, cs_enc & 0x0f, 0)?;
        let size = read_encoded(&mut table, cs_enc & 0x0f, 0)?;
        let lp = read_encoded(&mut table, cs_enc & 0x0f, 0)?;
        table.read_uleb128().ok()?;
        let start = func.checked_add(start)?;
        let end = start.checked_add(size)?;
        if lp != 0 && size > 0 {
            out.push(CallSite {
                start,
                end,
                pad: lpstart.checked_add(lp)?,
            });
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GCC's shape: lpstart omitted, a type table (`0x9b`, offset 5),
    /// call sites in `uleb128`: `[4, 9)` with pad at 0x30, `[9, 12)`
    /// without pad.
    #[test]
    fn gcc_lsda_with_a_type_table() {
        let lsda = [0xff, 0x9b, 5, 0x01, 8, 4, 5, 0x30, 1, 9, 3, 0, 0];
        let mut t = ExceptTables::default();
        t.add_lsda(&lsda, 0x1000, 0x5000);
        t.finish();
        let pad = |a| t.pad_of(a);
        assert_eq!(
            (pad(0x1003), pad(0x1004), pad(0x1008), pad(0x1009)),
            (None, Some(0x1030), Some(0x1030), None)
        );
        assert_eq!(t.skipped, 0);
    }

    /// `udata4` call sites (the older GCC encoding), and an entry of an
    /// unknown encoding: skipped, nothing kept of it.
    #[test]
    fn udata4_sites_and_bad_encodings() {
        let mut lsda = vec![0xff, 0xff, 0x03, 13];
        for v in [0x10u32, 0x8, 0x40] {
            lsda.extend(v.to_le_bytes());
        }
        lsda.push(0);
        let mut t = ExceptTables::default();
        t.add_lsda(&lsda, 0x2000, 0);
        t.add_lsda(&[0xff, 0xff, 0x07, 4, 1, 1, 1, 0], 0x3000, 0);
        t.finish();
        assert_eq!(t.pad_of(0x2014), Some(0x2040));
        assert_eq!((t.pads(), t.skipped), (1, 1));
    }

    /// Truncated LSDAs of every length: skipped, never a panic.
    #[test]
    fn every_truncation_is_a_counted_skip() {
        let lsda = [0xff, 0x9b, 5, 0x01, 8, 4, 5, 0x30, 1, 9, 3, 0, 0];
        for n in 0..lsda.len() - 1 {
            let mut t = ExceptTables::default();
            t.add_lsda(&lsda[..n], 0x1000, 0);
            assert_eq!((t.pads(), t.skipped), (0, 1), "{n} bytes");
        }
    }
}
