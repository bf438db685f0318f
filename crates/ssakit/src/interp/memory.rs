//! The interpreter's state beyond variables: a sparse, byte-addressed,
//! little-endian memory and the globals, which the loads, stores,
//! `global.get`/`global.set` and `memory.size`/`memory.grow` of the
//! [operation set](crate::ir::Opcode) read and write.
//!
//! One memory serves two views:
//!
//! * **WebAssembly's linear memory** ([`Memory::linear`]): addresses
//!   `0..size`, a whole number of 64 KiB pages; an access that reaches
//!   past `size` traps (`OpTrap::OutOfBounds`); `memory.grow` adds zeroed
//!   pages up to a maximum.
//! * **A flat machine address space** ([`Memory::flat`]): 64-bit
//!   addresses, where only the ranges [`Memory::map`]ped (a stack, the
//!   segments of an ELF file) may be accessed; anything else traps.
//!
//! Pages of 4 KiB are allocated when first written (or mapped), so a
//! 4 GiB linear memory or a stack at `0x7fff_0000_0000` costs what is
//! touched. Unwritten bytes read as zero.

use crate::ir::OpTrap;
use rustc_hash::{FxHashMap, FxHashSet};

use super::Value;

/// Bytes of one allocation page of the sparse memory.
const PAGE: u64 = 4096;
/// Bytes of a WebAssembly page.
pub const WASM_PAGE: u64 = 65536;

/// Which addresses may be accessed.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Bounds {
    /// `0..bytes`, growable to `max_pages` WebAssembly pages.
    Linear { bytes: u64, max_pages: u64 },
    /// The mapped pages only.
    Flat,
}

/// A sparse little-endian memory of 4 KiB pages allocated when first
/// written: a WebAssembly linear memory ([`Memory::linear`], bounds-checked,
/// growable) or a flat 64-bit address space where only what was
/// [mapped](Memory::map) may be accessed ([`Memory::flat`]). Unwritten
/// bytes read as zero.
///
/// ```
/// use ssakit::interp::Memory;
/// let mut m = Memory::linear(1, 2);
/// m.write(8, &0x1122_3344u32.to_le_bytes()).unwrap();
/// assert_eq!(m.read(8, 4).unwrap(), 0x1122_3344);
/// assert_eq!(m.read(9, 1).unwrap(), 0x33); // little-endian
/// assert!(m.read(65535, 2).is_err()); // past the end of the one page
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    pages: FxHashMap<u64, Box<[u8; PAGE as usize]>>,
    /// In a flat memory, the mapped page numbers.
    mapped: FxHashSet<u64>,
    bounds: Bounds,
}

impl Default for Memory {
    /// An empty flat memory: every access traps.
    fn default() -> Self {
        Memory::flat()
    }
}

impl Memory {
    /// A WebAssembly linear memory of `pages` 64 KiB pages, growable to
    /// `max_pages`.
    ///
    /// ```
    /// use ssakit::interp::Memory;
    /// let m = Memory::linear(3, 10);
    /// assert_eq!(m.size_pages(), 3);
    /// ```
    pub fn linear(pages: u64, max_pages: u64) -> Memory {
        Memory {
            pages: FxHashMap::default(),
            mapped: FxHashSet::default(),
            bounds: Bounds::Linear {
                bytes: pages.saturating_mul(WASM_PAGE),
                max_pages,
            },
        }
    }

    /// A flat 64-bit address space with nothing mapped.
    ///
    /// ```
    /// use ssakit::interp::Memory;
    /// let mut m = Memory::flat();
    /// assert!(m.read(0x1000, 8).is_err());
    /// m.map(0x1000, 16);
    /// assert_eq!(m.read(0x1000, 8), Ok(0));
    /// ```
    pub fn flat() -> Memory {
        Memory {
            pages: FxHashMap::default(),
            mapped: FxHashSet::default(),
            bounds: Bounds::Flat,
        }
    }

    /// Makes `addr..addr + len` of a flat memory accessible (whole 4 KiB
    /// pages); no effect on a linear memory.
    ///
    /// ```
    /// use ssakit::interp::Memory;
    /// let mut m = Memory::flat();
    /// m.map(0x7fff_0000_0ff8, 16); // straddles two pages
    /// assert!(m.write(0x7fff_0000_0ffc, &[1; 8]).is_ok());
    /// ```
    pub fn map(&mut self, addr: u64, len: u64) {
        if self.bounds != Bounds::Flat || len == 0 {
            return;
        }
        let last = addr.saturating_add(len - 1) / PAGE;
        for p in addr / PAGE..=last {
            self.mapped.insert(p);
        }
    }

    /// The size of a linear memory in WebAssembly pages (0 for a flat one).
    ///
    /// ```
    /// use ssakit::interp::Memory;
    /// assert_eq!(ssakit::interp::Memory::flat().size_pages(), 0);
    /// ```
    pub fn size_pages(&self) -> u64 {
        match self.bounds {
            Bounds::Linear { bytes, .. } => bytes / WASM_PAGE,
            Bounds::Flat => 0,
        }
    }

    /// `memory.grow`: adds `delta` pages to a linear memory and gives the
    /// old size, or `None` (WebAssembly's -1) past its maximum.
    ///
    /// ```
    /// use ssakit::interp::Memory;
    /// let mut m = Memory::linear(1, 2);
    /// assert_eq!((m.grow(1), m.grow(1)), (Some(1), None));
    /// ```
    pub fn grow(&mut self, delta: u64) -> Option<u64> {
        match &mut self.bounds {
            Bounds::Linear { bytes, max_pages } => {
                let old = *bytes / WASM_PAGE;
                let new = old.checked_add(delta).filter(|&n| n <= *max_pages)?;
                *bytes = new * WASM_PAGE;
                Some(old)
            }
            Bounds::Flat => None,
        }
    }

    /// Whether `addr..addr + len` may be accessed.
    fn check(&self, addr: u64, len: u64) -> Result<(), OpTrap> {
        let end = addr.checked_add(len).ok_or(OpTrap::OutOfBounds)?;
        let ok = match self.bounds {
            Bounds::Linear { bytes, .. } => end <= bytes,
            Bounds::Flat => {
                len == 0 || (addr / PAGE..=(end - 1) / PAGE).all(|p| self.mapped.contains(&p))
            }
        };
        ok.then_some(()).ok_or(OpTrap::OutOfBounds)
    }

    /// Reads `len` (at most 8) bytes at `addr` as a little-endian integer,
    /// zero-extended.
    ///
    /// # Errors
    /// `OpTrap::OutOfBounds` outside the accessible addresses.
    ///
    /// ```
    /// use ssakit::interp::Memory;
    /// let mut m = Memory::linear(1, 1);
    /// m.write(0, &[0xff, 0xee]).unwrap();
    /// assert_eq!(m.read(0, 2), Ok(0xeeff));
    /// ```
    pub fn read(&self, addr: u64, len: u64) -> Result<u64, OpTrap> {
        debug_assert!(len <= 8);
        self.check(addr, len)?;
        let mut v = 0u64;
        for k in (0..len).rev() {
            v = (v << 8) | u64::from(self.byte(addr + k));
        }
        Ok(v)
    }

    /// Writes `bytes` at `addr`.
    ///
    /// # Errors
    /// `OpTrap::OutOfBounds` outside the accessible addresses (nothing is
    /// written then).
    ///
    /// ```
    /// use ssakit::interp::Memory;
    /// let mut m = Memory::linear(1, 1);
    /// assert!(m.write(65534, &[1, 2, 3]).is_err());
    /// assert_eq!(m.read(65534, 2), Ok(0)); // an access that traps writes nothing
    /// ```
    pub fn write(&mut self, addr: u64, bytes: &[u8]) -> Result<(), OpTrap> {
        self.check(addr, bytes.len() as u64)?;
        for (k, &b) in bytes.iter().enumerate() {
            let a = addr + k as u64;
            let page = self
                .pages
                .entry(a / PAGE)
                .or_insert_with(|| Box::new([0; PAGE as usize]));
            page[(a % PAGE) as usize] = b;
        }
        Ok(())
    }

    fn byte(&self, a: u64) -> u8 {
        self.pages
            .get(&(a / PAGE))
            .map_or(0, |p| p[(a % PAGE) as usize])
    }

    /// Every non-zero byte, by address: what two memories are compared on.
    ///
    /// ```
    /// use ssakit::interp::Memory;
    /// let mut m = Memory::linear(1, 1);
    /// m.write(3, &[0, 7]).unwrap();
    /// assert_eq!(m.nonzero_bytes(), [(4, 7)]);
    /// ```
    pub fn nonzero_bytes(&self) -> Vec<(u64, u8)> {
        let mut pages: Vec<u64> = self.pages.keys().copied().collect();
        pages.sort_unstable();
        let mut out = Vec::new();
        for p in pages {
            for (k, &b) in self.pages[&p].iter().enumerate() {
                if b != 0 {
                    out.push((p * PAGE + k as u64, b));
                }
            }
        }
        out
    }
}

/// What the operations of the set read and write besides variables: the
/// memory and the globals.
///
/// ```
/// use ssakit::interp::{Interpreter, Memory, RunOptions, State, Value};
/// use ssakit::text::parse_module;
/// let src = "operator i32.store trap write\noperator i32.load trap read\n\
///            operator global.get read\n\n\
///            function f(p: i32) -> i32 {\ne:\n    g: i32 = global.get[0]()\n    \
///            i32.store[4, 2, 0](p, g)\n    x: i32 = i32.load[0, 2, 0](8)\n    ret x\n}\n";
/// let m = parse_module(src).unwrap();
/// let mut state = State { memory: Memory::linear(1, 1), globals: vec![Value::Int(42)] };
/// let out = Interpreter::new(&m).unwrap().run_in(0, &[4], &mut state, &RunOptions::default()).unwrap();
/// assert_eq!(out.ret, Some(Value::Int(42)));
/// assert_eq!(state.memory.read(8, 4), Ok(42));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    /// The memory.
    pub memory: Memory,
    /// The globals, by index (WebAssembly's global index space).
    pub globals: Vec<Value>,
}
