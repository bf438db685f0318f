//! Reading an x86-64 ELF file: its code and data, its functions' extents,
//! and the names of its PLT stubs.
//!
//! Functions come from three places, in this order of preference:
//!
//! 1. `FUNC` symbols with a size, of `.symtab` and `.dynsym` (and of a
//!    separate debug file, Debian's `-dbg` packages, given to
//!    [`Binary::add_symbols`]);
//! 2. the FDEs of `.eh_frame` (read with `gimli`) whose start no symbol's
//!    extent covers: the functions of a stripped binary, named
//!    `sub_ADDRESS`;
//!
//! and never from the PLT sections (`.plt`, `.plt.sec`, `.plt.got`), whose
//! stubs are named after the symbol of the GOT slot they jump through
//! (`.rela.plt`, `.rela.dyn`): a call to the stub of `puts` is a call of
//! `puts.plt`.
//!
//! Each function has a [`FuncInfo::label`], its name as the text format
//! prints it: the symbol's name made an identifier ([`ident`]), unique in
//! the binary. Two functions of one name (two `static` functions
//! `helper` of two files) are `helper` (the lower address) and
//! `helper.2`, then `helper.3`, ..., skipping a label another function
//! already has; a call names its callee's label (`helper.2.call`).
//!
//! Only executables and shared objects (`ET_EXEC`, `ET_DYN`) are read: a
//! relocatable object (`.o`) has no addresses yet, and is refused. A
//! separate debug file ([`Binary::add_symbols`]) must come from the same
//! build: its GNU build-id must be the binary's (or, where the binary
//! has none, its CRC the binary's `.gnu_debuglink` records).
//!
//! Every error of [`Binary::parse`] carries the byte offset of what is
//! wrong and its [kind](crate::error::ErrorKind), with the [`Field`]: the
//! headers are checked here before `object` reads them, so that a
//! truncated or mutated file says which field or section header points
//! outside it.

use crate::error::{ErrorKind, Field, X86Error};
use crate::regs::{flow, Flow};
use iced_x86::{Decoder, DecoderOptions};
use object::elf::{R_X86_64_IRELATIVE, R_X86_64_RELATIVE};
use object::read::elf::ElfFile64;
use object::{
    LittleEndian as LE, Object, ObjectSection, ObjectSymbol, ObjectSymbolTable, RelocationTarget,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::Range;

/// Where a function's extent came from.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// use ssakit_x86::binary::Origin;
/// // The fixture has its symbols: no function comes from `.eh_frame` alone.
/// assert!(bin.functions().iter().all(|f| f.origin == Origin::Symbol));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    /// A `FUNC` symbol with a size.
    Symbol,
    /// An `.eh_frame` FDE no symbol covers.
    Fde,
    /// An entry point of the file: `e_entry`, `.init`, `.fini`
    /// ([`crate::discover`]).
    Entry,
    /// The target of a direct `call` of decoded code
    /// ([`crate::discover`]).
    Call,
    /// A code address stored in data: `.init_array` and its kin, a
    /// relocation's target, an aligned word of a static binary's data
    /// ([`crate::discover`]).
    Pointer,
    /// The first instruction after padding between extents
    /// ([`crate::discover`]).
    Gap,
}

impl Origin {
    /// Every origin, in declaration order.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::binary::Origin::ALL.len(), 6);
    /// ```
    pub const ALL: [Origin; 6] = [
        Origin::Symbol,
        Origin::Fde,
        Origin::Entry,
        Origin::Call,
        Origin::Pointer,
        Origin::Gap,
    ];

    /// A short key for counts and JSON: `symbol`, `fde`, `entry`,
    /// `call`, `pointer`, `gap`.
    ///
    /// ```
    /// assert_eq!(ssakit_x86::binary::Origin::Call.key(), "call");
    /// ```
    pub fn key(self) -> &'static str {
        match self {
            Origin::Symbol => "symbol",
            Origin::Fde => "fde",
            Origin::Entry => "entry",
            Origin::Call => "call",
            Origin::Pointer => "pointer",
            Origin::Gap => "gap",
        }
    }
}

/// A function: its name, its label and the address range of its code.
///
/// ```
/// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// # let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let f = bin.functions().iter().find(|f| f.name == "maxl").unwrap();
/// assert!(f.extent.end - f.extent.start >= 8);
/// assert_eq!(f.label, "maxl");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncInfo {
    /// The symbol's name, or `sub_ADDRESS` (hexadecimal).
    pub name: String,
    /// The name the lifted function is printed with: `name` as an
    /// identifier, unique in the binary (the module doc says how).
    pub label: String,
    /// Its code, `[start, end)`.
    pub extent: Range<u64>,
    /// Where the extent came from.
    pub origin: Origin,
    /// Whether an `.eh_frame` FDE starting at [`FuncInfo::extent`]'s start
    /// says it is a *fragment* of another function, not a function: at
    /// its first address the CFA is something else than `rsp + 8` (a
    /// called function has only its return address pushed there; GCC's
    /// `.cold` parts of hot/cold splitting are entered by jumps from the
    /// middle of their function, e.g. with CFA `rsp + 56`). Such code is
    /// walked as part of the functions that jump into it ([`crate::cfg`]).
    pub fragment: bool,
}

/// A loaded section with contents.
#[derive(Clone, Debug)]
struct Region<'d> {
    addr: u64,
    bytes: &'d [u8],
    exec: bool,
}

/// An ELF file read: its loaded sections, functions and PLT names.
///
/// ```
/// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
/// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
/// let main = bin.functions().iter().find(|f| f.name == "main").unwrap();
/// assert!(main.extent.end > main.extent.start);
/// assert!(bin.code(main.extent.start).is_some());
/// ```
#[derive(Clone, Debug)]
pub struct Binary<'d> {
    regions: Vec<Region<'d>>,
    plt: Vec<Range<u64>>,
    plt_names: FxHashMap<u64, String>,
    got_names: FxHashMap<u64, String>,
    /// The GOT slots and PLT stubs of symbols the file itself defines as
    /// functions (not `STT_GNU_IFUNC`): slot or stub, the definition's
    /// address.
    got_defs: FxHashMap<u64, u64>,
    plt_defs: FxHashMap<u64, u64>,
    /// The GOT slots and PLT stubs an IFUNC's resolver fills (an
    /// `R_X86_64_IRELATIVE` relocation's addend, or an `STT_GNU_IFUNC`
    /// symbol the file defines): slot or stub, the resolver's address.
    got_resolvers: FxHashMap<u64, u64>,
    plt_resolvers: FxHashMap<u64, u64>,
    functions: Vec<FuncInfo>,
    by_start: FxHashMap<u64, u32>,
    /// The GNU build-id's bytes and the `.gnu_debuglink` CRC, if any.
    build_id: Option<&'d [u8]>,
    debuglink_crc: Option<u32>,
    /// Whether the file has section headers and an `.eh_frame`: why
    /// [`Binary::functions`] may be empty.
    has_sections: bool,
    has_eh_frame: bool,
    /// The landing pads of the `.gcc_except_table` call sites.
    except: crate::except::ExceptTables,
    /// The calling convention its code follows ([`crate::conv`]).
    conv: crate::conv::ConvKind,
    /// The extents of the FDEs that are fragments ([`FuncInfo::fragment`]),
    /// sorted by start.
    fragments: Vec<Range<u64>>,
    /// Where [`crate::discover`] starts: the entry points (`e_entry`,
    /// `.init`, `.fini`) and the code addresses the file stores
    /// (`.init_array`, `.fini_array`, `.preinit_array`, the targets of
    /// `R_X86_64_RELATIVE` and `IRELATIVE` relocations).
    pub(crate) roots: Roots,
}

/// The entry points and stored code addresses of a file, read by
/// [`Binary::parse`] for [`crate::discover`] (unchecked: any may lie
/// outside the code).
#[derive(Clone, Debug, Default)]
pub(crate) struct Roots {
    /// `e_entry`, the starts of `.init` and `.fini`.
    pub(crate) entries: Vec<u64>,
    /// The words of the init and fini arrays, the relative relocations'
    /// addends.
    pub(crate) pointers: Vec<u64>,
    /// Whether the file has `R_X86_64_RELATIVE` relocations: then its
    /// stored addresses are those, and data words are not scanned.
    pub(crate) relocated: bool,
}

// The fields of the ELF64 file header that are read, by byte offset
// (System V gABI, "ELF Header"); an error names the offset of the field
// that is wrong.
/// `e_ident[EI_MAG0..=EI_MAG3]`, at offset 0.
const ELFMAG: &[u8; 4] = b"\x7fELF";
/// `e_ident[EI_CLASS]`: [`ELFCLASS64`].
const EI_CLASS: usize = 4;
/// `e_ident[EI_DATA]`: [`ELFDATA2LSB`].
const EI_DATA: usize = 5;
/// `e_type` (2 bytes): [`ET_EXEC`] or [`ET_DYN`].
const E_TYPE: usize = 0x10;
/// `e_machine` (2 bytes): [`EM_X86_64`].
const E_MACHINE: usize = 0x12;
/// `e_phoff` (8 bytes): the program header table's file offset.
const E_PHOFF: usize = 0x20;
/// `e_shoff` (8 bytes): the section header table's file offset.
const E_SHOFF: usize = 0x28;
/// `e_phentsize` (2 bytes).
const E_PHENTSIZE: usize = 0x36;
/// `e_phnum` (2 bytes).
const E_PHNUM: usize = 0x38;
/// `e_shentsize` (2 bytes).
const E_SHENTSIZE: usize = 0x3a;
/// `e_shnum` (2 bytes).
const E_SHNUM: usize = 0x3c;
/// `e_shstrndx` (2 bytes): the section name table's index.
const E_SHSTRNDX: usize = 0x3e;
/// The file header's size.
const EHDR_SIZE: u64 = 64;
/// A program header's size.
const PHDR_SIZE: u64 = 56;

// The fields of a section header that are read, by byte offset from its
// start.
/// `sh_type` (4 bytes).
const SH_TYPE: usize = 4;
/// `sh_flags` (8 bytes).
const SH_FLAGS: usize = 8;
/// `sh_offset` (8 bytes): the contents' file offset.
const SH_OFFSET: usize = 0x18;
/// `sh_size` (8 bytes): the contents' size.
const SH_SIZE: usize = 0x20;
/// `sh_link` (4 bytes): the index of a related section (a symbol
/// table's string table, a relocation section's symbol table).
const SH_LINK: usize = 0x28;
/// `sh_entsize` (8 bytes): the size of a table's entries.
const SH_ENTSIZE: usize = 0x38;
/// A section header's size.
const SHDR_SIZE: u64 = 64;

const ELFCLASS64: u8 = 2;
const ELFDATA2LSB: u8 = 1;
const EM_X86_64: u64 = 62;
const ET_REL: u64 = 1;
const ET_EXEC: u64 = 2;
const ET_DYN: u64 = 3;
const ET_CORE: u64 = 4;
const SHT_NULL: u64 = 0;
const SHT_SYMTAB: u64 = 2;
const SHT_STRTAB: u64 = 3;
const SHT_RELA: u64 = 4;
const SHT_NOBITS: u64 = 8;
const SHT_REL: u64 = 9;
const SHT_DYNSYM: u64 = 11;
const SHN_XINDEX: u64 = 0xffff;
const SHF_ALLOC: u64 = 2;
const SHF_EXECINSTR: u64 = 4;

/// The little-endian integer of `N` bytes at `o` (0 past the end: callers
/// check the bounds first, this only keeps a bad file from panicking).
fn le_at<const N: usize>(d: &[u8], o: usize) -> u64 {
    let mut b = [0u8; 8];
    if let Some(s) = o.checked_add(N).and_then(|e| d.get(o..e)) {
        b[..N].copy_from_slice(s);
    }
    u64::from_le_bytes(b)
}

fn u16_at(d: &[u8], o: usize) -> u64 {
    le_at::<2>(d, o)
}

fn u32_at(d: &[u8], o: usize) -> u64 {
    le_at::<4>(d, o)
}

fn u64_at(d: &[u8], o: usize) -> u64 {
    le_at::<8>(d, o)
}

/// Section header `i` of `d`, read field by field (where the file header
/// says; [`check_headers`] checks that the table lies inside the file).
#[derive(Clone, Copy)]
struct SectionHeader<'d> {
    d: &'d [u8],
    /// Its file offset.
    at: u64,
}

impl<'d> SectionHeader<'d> {
    fn nth(d: &'d [u8], i: u64) -> SectionHeader<'d> {
        SectionHeader {
            d,
            at: u64_at(d, E_SHOFF) + i * u16_at(d, E_SHENTSIZE),
        }
    }

    fn field(&self, offset: usize) -> usize {
        self.at as usize + offset
    }

    fn ty(&self) -> u64 {
        u32_at(self.d, self.field(SH_TYPE))
    }

    fn flags(&self) -> u64 {
        u64_at(self.d, self.field(SH_FLAGS))
    }

    fn offset(&self) -> u64 {
        u64_at(self.d, self.field(SH_OFFSET))
    }

    fn size(&self) -> u64 {
        u64_at(self.d, self.field(SH_SIZE))
    }

    fn entsize(&self) -> u64 {
        u64_at(self.d, self.field(SH_ENTSIZE))
    }

    fn link(&self) -> u64 {
        u32_at(self.d, self.field(SH_LINK))
    }
}

/// The section type a section of type `ty` must link to with its
/// `sh_link`, as `object` requires: a symbol table's string table, a
/// relocation section's symbol table (or none, 0).
fn link_wanted(ty: u64) -> Option<(&'static [u64], &'static str)> {
    match ty {
        SHT_SYMTAB | SHT_DYNSYM => Some((&[SHT_STRTAB], "a string table")),
        SHT_REL | SHT_RELA => Some((&[SHT_SYMTAB, SHT_DYNSYM], "a symbol table")),
        _ => None,
    }
}

/// Checks the `sh_link` of each section `object` follows (symbol tables,
/// relocation sections): in range and of the right type, else an error
/// at the field.
fn check_links(d: &[u8], shnum: u64) -> Result<(), X86Error> {
    for i in 0..shnum {
        let h = SectionHeader::nth(d, i);
        let Some((types, what)) = link_wanted(h.ty()) else {
            continue;
        };
        let link = h.link();
        if link == 0 && matches!(h.ty(), SHT_REL | SHT_RELA) {
            continue;
        }
        let to = (link < shnum).then(|| SectionHeader::nth(d, link).ty());
        if !to.is_some_and(|t| types.contains(&t)) {
            let found = match to {
                Some(t) => format!("section {link}, of type {t}"),
                None => format!("{link}, out of range ({shnum} sections)"),
            };
            return Err(X86Error::at(
                h.field(SH_LINK) as u64,
                ErrorKind::Malformed(Field::SectionLink),
                format!("section {i}'s sh_link should be {what}, but is {found}"),
            ));
        }
    }
    Ok(())
}

/// Checks the file's identification: the magic number, then a 64-bit,
/// little-endian, x86-64 executable or shared object (an error names the
/// first field that is not).
fn check_ident(d: &[u8]) -> Result<(), X86Error> {
    let len = d.len() as u64;
    if len < 4 || &d[..4] != ELFMAG {
        return Err(X86Error::at(
            len.min(4),
            ErrorKind::NotElf,
            "not an ELF file (no `\\x7fELF` magic)",
        ));
    }
    if len < EHDR_SIZE {
        return Err(X86Error::at(
            len,
            ErrorKind::Malformed(Field::Header),
            "ELF header truncated (64 bytes expected)",
        ));
    }
    if d[EI_CLASS] != ELFCLASS64 {
        return Err(X86Error::at(
            EI_CLASS as u64,
            ErrorKind::Unsupported(Field::Class),
            "not a 64-bit ELF file",
        ));
    }
    if d[EI_DATA] != ELFDATA2LSB {
        return Err(X86Error::at(
            EI_DATA as u64,
            ErrorKind::Unsupported(Field::ByteOrder),
            "not a little-endian ELF file",
        ));
    }
    if u16_at(d, E_MACHINE) != EM_X86_64 {
        return Err(X86Error::at(
            E_MACHINE as u64,
            ErrorKind::Unsupported(Field::Machine),
            "not an x86-64 ELF file (e_machine)",
        ));
    }
    let why = match u16_at(d, E_TYPE) {
        ET_EXEC | ET_DYN => return Ok(()),
        ET_REL => "a relocatable object (ET_REL, a `.o` file) is not supported: \
                   its code is not placed at addresses yet; lift the linked binary"
            .to_string(),
        ET_CORE => {
            "a core file (ET_CORE) is not supported: lift the binary it came from".to_string()
        }
        t => format!("e_type {t}: not an executable or shared object"),
    };
    let kind = ErrorKind::Unsupported(Field::Type);
    Err(X86Error::at(E_TYPE as u64, kind, why))
}

/// Checks what `object` would refuse without a location: the ELF
/// identification ([`check_ident`]), and that the section and program
/// header tables and every section's contents lie inside the file.
fn check_headers(d: &[u8]) -> Result<(), X86Error> {
    check_ident(d)?;
    let len = d.len() as u64;
    let table = |off_field: usize, size_field: usize, num_field: usize, field, what: &str| {
        let off = u64_at(d, off_field);
        let entsize = u16_at(d, size_field);
        let num = u16_at(d, num_field);
        if num == 0 {
            return Ok((off, 0, entsize));
        }
        match off.checked_add(entsize * num) {
            // (The section header table's longer entries are checked below.)
            Some(end) if end <= len && entsize >= PHDR_SIZE => Ok((off, num, entsize)),
            _ => Err(X86Error::at(
                off_field as u64,
                ErrorKind::Malformed(field),
                format!("{what} table ({num} entries of {entsize} bytes at {off:#x}) outside the file of {len} bytes"),
            )),
        }
    };
    let ph = Field::ProgramHeaders;
    table(E_PHOFF, E_PHENTSIZE, E_PHNUM, ph, "program header")?;
    let sh = Field::SectionHeaders;
    let (_, shnum, shentsize) = table(E_SHOFF, E_SHENTSIZE, E_SHNUM, sh, "section header")?;
    if shnum > 0 && shentsize < SHDR_SIZE {
        return Err(X86Error::at(
            E_SHENTSIZE as u64,
            ErrorKind::Malformed(Field::SectionHeaders),
            "section header entries shorter than 64 bytes",
        ));
    }
    for i in 0..shnum {
        let h = SectionHeader::nth(d, i);
        let (ty, off, size) = (h.ty(), h.offset(), h.size());
        if ty != SHT_NOBITS && ty != SHT_NULL && off.checked_add(size).is_none_or(|e| e > len) {
            return Err(X86Error::at(
                h.at,
                ErrorKind::Malformed(Field::SectionContents),
                format!("section {i}'s contents ({size} bytes at {off:#x}) outside the file of {len} bytes"),
            ));
        }
    }
    let shstrndx = u16_at(d, E_SHSTRNDX);
    if shnum > 0 && shstrndx >= shnum && shstrndx != SHN_XINDEX {
        return Err(X86Error::at(
            E_SHSTRNDX as u64,
            ErrorKind::Malformed(Field::SectionNames),
            format!("section name table index {shstrndx} out of range"),
        ));
    }
    check_links(d, shnum)
}

/// What `object` refuses once [`check_headers`] has passed: an error at
/// offset 0 in its words.
fn object_error(e: object::read::Error) -> X86Error {
    X86Error::at(0, ErrorKind::Malformed(Field::Other), format!("ELF: {e}"))
}

/// `name` made an identifier of the text format: other characters become
/// `_`, a leading digit gets a `_` before it, a reserved word one after.
///
/// ```
/// use ssakit_x86::binary::ident;
/// assert_eq!(ident("foo.part.0"), "foo.part.0");
/// assert_eq!(ident("operator new$1"), "operator_new_1");
/// assert_eq!(ident("phi"), "phi_");
/// ```
pub fn ident(name: &str) -> String {
    // No longer than `name` (a character kept or one `_`), but for the
    // two `_` below: allocated once.
    let mut s = String::with_capacity(name.len() + 2);
    s.extend(name.chars().map(|c| {
        if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            c
        } else {
            '_'
        }
    }));
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s.insert(0, '_');
    }
    if ssakit::ir::is_reserved(&s) {
        s.push('_');
    }
    s
}

/// The CRC-32 (IEEE 802.3, reflected, as zlib's `crc32`) that
/// `.gnu_debuglink` records of a debug file.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xedb8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

fn hex_bytes(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn sanitize_addr(name: &str) -> String {
    name.split('@').next().unwrap_or(name).to_string()
}

impl<'d> Binary<'d> {
    /// Reads the ELF file `data`: sections, functions, PLT names.
    ///
    /// # Errors
    /// A file that is not a well-formed 64-bit little-endian x86-64 ELF
    /// file, with the byte offset of what is wrong: of kind
    /// [`ErrorKind::NotElf`], [`ErrorKind::Unsupported`] or
    /// [`ErrorKind::Malformed`], with the [`Field`].
    ///
    /// ```
    /// use ssakit_x86::error::{ErrorKind, Field};
    /// let Err(e) = ssakit_x86::binary::Binary::parse(b"\x7fELF\x01") else { panic!() };
    /// assert_eq!(e.kind, ErrorKind::Malformed(Field::Header));
    /// assert!(e.to_string().contains("truncated"));
    /// ```
    pub fn parse(data: &'d [u8]) -> Result<Binary<'d>, X86Error> {
        check_headers(data)?;
        let file = ElfFile64::<LE>::parse(data).map_err(object_error)?;
        let mut bin = Binary {
            regions: Vec::new(),
            plt: Vec::new(),
            plt_names: FxHashMap::default(),
            got_names: FxHashMap::default(),
            got_defs: FxHashMap::default(),
            plt_defs: FxHashMap::default(),
            got_resolvers: FxHashMap::default(),
            plt_resolvers: FxHashMap::default(),
            functions: Vec::new(),
            by_start: FxHashMap::default(),
            build_id: file.build_id().ok().flatten(),
            debuglink_crc: file.gnu_debuglink().ok().flatten().map(|(_, crc)| crc),
            has_sections: u16_at(data, E_SHNUM) > 0,
            has_eh_frame: false,
            except: Default::default(),
            conv: crate::conv::ConvKind::SystemV,
            fragments: Vec::new(),
            roots: Roots::default(),
        };
        bin.roots.entries.push(file.entry());
        let mut eh_frame = None;
        let mut plt_sections = Vec::new();
        for sec in file.sections() {
            // The raw header (checked to lie inside the file).
            let header = SectionHeader::nth(data, sec.index().0 as u64);
            let at = header.at;
            let flags = header.flags();
            if crate::conv::is_go_section(sec.name().unwrap_or("")) {
                bin.conv = crate::conv::ConvKind::GoAbiInternal;
            }
            if flags & SHF_ALLOC == 0 || header.ty() == SHT_NOBITS {
                continue;
            }
            let bytes = sec.data().map_err(|e| {
                let what = format!("section {}: {e}", sec.index().0);
                X86Error::at(at, ErrorKind::Malformed(Field::SectionContents), what)
            })?;
            let exec = flags & SHF_EXECINSTR != 0;
            let addr = sec.address();
            if addr.checked_add(bytes.len() as u64).is_none() {
                return Err(X86Error::at(
                    at,
                    ErrorKind::Malformed(Field::SectionAddress),
                    "section's address range overflows",
                ));
            }
            bin.regions.push(Region { addr, bytes, exec });
            let name = sec.name().unwrap_or("");
            bin.roots.read_section(name, addr, bytes);
            if name == ".eh_frame" {
                eh_frame = Some((addr, bytes, header.offset()));
                bin.has_eh_frame = true;
            }
            if exec && matches!(name, ".plt" | ".plt.sec" | ".plt.got") {
                let entsize = match header.entsize() {
                    0 if name == ".plt.got" => 8,
                    0 => 16,
                    n => n,
                };
                bin.plt.push(addr..addr + bytes.len() as u64);
                plt_sections.push((addr, bytes, entsize));
            }
        }
        bin.regions.sort_by_key(|r| r.addr);
        bin.roots.read_relocations(&file);
        bin.read_got_names(&file);
        bin.read_plt(&plt_sections);
        bin.add_symbols_of(&file);
        if let Some((addr, bytes, off)) = eh_frame {
            bin.read_eh_frame(addr, bytes, off)?;
        }
        bin.except.finish();
        bin.finish_functions();
        Ok(bin)
    }

    /// Adds the function symbols of a separate debug file (same layout,
    /// e.g. from a `-dbg` package) to the functions.
    ///
    /// # Errors
    /// A debug file that is not a well-formed x86-64 ELF file (as
    /// [`Binary::parse`]), or that comes from another build
    /// ([`ErrorKind::OtherBuild`]): a GNU build-id other than the binary's
    /// (at the debug file's build-id note), or, where the binary has no
    /// build-id, a CRC other than the one its `.gnu_debuglink` records.
    ///
    /// ```
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/");
    /// let elf = std::fs::read(format!("{dir}fixture")).unwrap();
    /// let mut bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let n = bin.functions().len();
    /// bin.add_symbols(&elf).unwrap(); // the same symbols again: nothing new
    /// assert_eq!(bin.functions().len(), n);
    /// let other = std::fs::read(format!("{dir}round4")).unwrap(); // another build
    /// let e = bin.add_symbols(&other).unwrap_err();
    /// assert_eq!(e.kind, ssakit_x86::error::ErrorKind::OtherBuild);
    /// assert!(e.to_string().contains("build-id"));
    /// ```
    pub fn add_symbols(&mut self, debug: &[u8]) -> Result<(), X86Error> {
        check_headers(debug)?;
        let file = ElfFile64::<LE>::parse(debug).map_err(object_error)?;
        self.check_same_build(debug, &file)?;
        let fdes: Vec<FuncInfo> = self
            .functions
            .iter()
            .filter(|f| f.origin == Origin::Fde)
            .cloned()
            .collect();
        self.functions.retain(|f| f.origin == Origin::Symbol);
        self.add_symbols_of(&file);
        // FDE functions that the new symbols now cover are dropped.
        let covered = self.symbol_cover();
        self.functions.extend(
            fdes.into_iter()
                .filter(|f| !covers(&covered, f.extent.start)),
        );
        self.finish_functions();
        Ok(())
    }

    /// Refuses a debug file of another build (see [`Binary::add_symbols`]).
    fn check_same_build(&self, debug: &[u8], file: &ElfFile64<'_, LE>) -> Result<(), X86Error> {
        match (self.build_id, file.build_id().ok().flatten()) {
            (Some(ours), Some(theirs)) if ours != theirs => {
                let at = theirs.as_ptr() as u64 - debug.as_ptr() as u64;
                Err(X86Error::at(
                    at,
                    ErrorKind::OtherBuild,
                    format!(
                        "the debug file's build-id {} is not the binary's {}: \
                         it comes from another build",
                        hex_bytes(theirs),
                        hex_bytes(ours)
                    ),
                ))
            }
            (None, _) => match self.debuglink_crc {
                Some(crc) if crc32(debug) != crc => Err(X86Error::new(
                    ErrorKind::OtherBuild,
                    format!(
                        "the debug file's CRC {:08x} is not the {crc:08x} the binary's \
                         `.gnu_debuglink` records: it comes from another build",
                        crc32(debug)
                    ),
                )),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// Refuses a binary in which no function is found, with an error of
    /// kind [`ErrorKind::NoFunctions`] saying why: no section headers, or
    /// no symbol of a function and no `.eh_frame` (a stripped binary
    /// without unwind tables, as Go's), or symbols and FDEs that name no
    /// code.
    ///
    /// # Errors
    /// When [`Binary::functions`] is empty.
    ///
    /// ```
    /// use ssakit_x86::error::ErrorKind;
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!(bin.check_functions(), Ok(()));
    /// let mut headless = elf.clone();
    /// headless[0x3c..0x3e].fill(0); // e_shnum 0
    /// let bin = ssakit_x86::binary::Binary::parse(&headless).unwrap();
    /// let e = bin.check_functions().unwrap_err();
    /// assert_eq!(e.kind, ErrorKind::NoFunctions);
    /// assert!(e.message.contains("no section headers"));
    /// ```
    pub fn check_functions(&self) -> Result<(), X86Error> {
        if !self.functions.is_empty() {
            return Ok(());
        }
        let why = if !self.has_sections {
            "no function found: the file has no section headers (e_shnum 0), \
             so no symbols and no `.eh_frame` to find functions in"
        } else if !self.has_eh_frame {
            "no function found: no symbol of a function and no `.eh_frame` (a \
             stripped binary without unwind tables, as Go's; give its debug file \
             with --symbols)"
        } else {
            "no function found: no symbol of a function and no `.eh_frame` FDE \
             names code of the file"
        };
        Err(X86Error::new(ErrorKind::NoFunctions, why))
    }

    fn read_got_names(&mut self, file: &ElfFile64<'d, LE>) {
        let Some(relocs) = file.dynamic_relocations() else {
            return;
        };
        let Some(dynsym) = file.dynamic_symbol_table() else {
            return;
        };
        for (off, rel) in relocs {
            if let object::RelocationFlags::Elf { r_type } = rel.flags() {
                if r_type == R_X86_64_IRELATIVE {
                    self.got_resolvers.entry(off).or_insert(rel.addend() as u64);
                }
            }
            if let RelocationTarget::Symbol(i) = rel.target() {
                let Ok(sym) = dynsym.symbol_by_index(i) else {
                    continue;
                };
                let ifunc = sym.elf_symbol().st_type() == object::elf::STT_GNU_IFUNC;
                if sym.is_definition() && sym.kind() == object::SymbolKind::Text && !ifunc {
                    self.got_defs.entry(off).or_insert(sym.address());
                }
                if sym.is_definition() && ifunc {
                    self.got_resolvers.entry(off).or_insert(sym.address());
                }
                if let Ok(name) = sym.name() {
                    if !name.is_empty() {
                        self.got_names
                            .entry(off)
                            .or_insert_with(|| sanitize_addr(name));
                    }
                }
            }
        }
    }

    /// Names each PLT stub after the GOT slot its `jmp [rip+X]` reads.
    fn read_plt(&mut self, sections: &[(u64, &[u8], u64)]) {
        for &(addr, bytes, entsize) in sections {
            let mut dec = Decoder::with_ip(64, bytes, addr, DecoderOptions::NONE);
            while dec.can_decode() {
                let ins = dec.decode();
                if flow(&ins) == Flow::IndirectJump && ins.is_ip_rel_memory_operand() {
                    let slot = ins.ip_rel_memory_address();
                    let stub = addr + (ins.ip() - addr) / entsize * entsize;
                    if let Some(name) = self.got_names.get(&slot) {
                        self.plt_names.entry(stub).or_insert_with(|| name.clone());
                    }
                    if let Some(&def) = self.got_defs.get(&slot) {
                        self.plt_defs.entry(stub).or_insert(def);
                    }
                    if let Some(&resolver) = self.got_resolvers.get(&slot) {
                        self.plt_resolvers.entry(stub).or_insert(resolver);
                    }
                }
            }
        }
    }

    fn add_symbols_of(&mut self, file: &ElfFile64<'_, LE>) {
        for sym in file.symbols().chain(file.dynamic_symbols()) {
            if sym.kind() != object::SymbolKind::Text || sym.size() == 0 {
                continue;
            }
            let start = sym.address();
            let Some(end) = start.checked_add(sym.size()) else {
                continue;
            };
            if !self.is_code(start) || self.in_plt(start) {
                continue;
            }
            let name = match sym.name() {
                Ok(n) if !n.is_empty() => sanitize_addr(n),
                _ => format!("sub_{start:x}"),
            };
            self.functions.push(FuncInfo {
                name,
                label: String::new(),
                extent: start..end,
                origin: Origin::Symbol,
                fragment: false,
            });
        }
    }

    fn symbol_cover(&self) -> Vec<Range<u64>> {
        let mut v: Vec<Range<u64>> = self
            .functions
            .iter()
            .filter(|f| f.origin == Origin::Symbol)
            .map(|f| f.extent.clone())
            .collect();
        v.sort_by_key(|r| r.start);
        // Merge into disjoint ranges.
        let mut out: Vec<Range<u64>> = Vec::with_capacity(v.len());
        for r in v {
            match out.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => out.push(r),
            }
        }
        out
    }

    fn read_eh_frame(&mut self, addr: u64, bytes: &[u8], file_off: u64) -> Result<(), X86Error> {
        use gimli::{BaseAddresses, CieOrFde, EhFrame, UnwindSection};
        let eh = EhFrame::new(bytes, gimli::LittleEndian);
        let bases = BaseAddresses::default().set_eh_frame(addr);
        let mut entries = eh.entries(&bases);
        let covered = self.symbol_cover();
        let mut ctx = Box::new(gimli::UnwindContext::new());
        let err = |e: gimli::Error| {
            let what = format!("`.eh_frame`: {e}");
            X86Error::at(file_off, ErrorKind::Malformed(Field::EhFrame), what)
        };
        while let Some(entry) = entries.next().map_err(err)? {
            if let CieOrFde::Fde(partial) = entry {
                let fde = partial
                    .parse(|sec, b, o| sec.cie_from_offset(b, o))
                    .map_err(err)?;
                let start = fde.initial_address();
                if let Some(p) = fde.lsda() {
                    self.read_lsda(p, start);
                }
                let Some(end) = start.checked_add(fde.len()) else {
                    continue;
                };
                // The PLT's FDE (CFA `rsp + 16` after its first push) is no
                // fragment: a jump to a stub stays a tail call.
                let code = fde.len() > 0 && self.is_code(start) && !self.in_plt(start);
                if code && is_fragment(&eh, &bases, &fde, &mut ctx) {
                    self.fragments.push(start..end);
                }
                if fde.len() == 0
                    || !self.is_code(start)
                    || self.in_plt(start)
                    || covers(&covered, start)
                {
                    continue;
                }
                self.functions.push(FuncInfo {
                    name: format!("sub_{start:x}"),
                    label: String::new(),
                    extent: start..end,
                    origin: Origin::Fde,
                    fragment: false,
                });
            }
        }
        Ok(())
    }

    /// Reads the LSDA an FDE of the function at `func` points to (a
    /// pointer that leads outside the loaded sections counts as a
    /// malformed LSDA).
    fn read_lsda(&mut self, p: gimli::Pointer, func: u64) {
        let addr = match p {
            gimli::Pointer::Direct(a) => Some(a),
            gimli::Pointer::Indirect(a) => self
                .read(a, 8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))),
        };
        match addr.and_then(|a| Some((a, self.bytes_from(a)?))) {
            Some((a, bytes)) => self.except.add_lsda(bytes, func, a),
            None => self.except.skipped += 1,
        }
    }

    /// The loaded bytes from `addr` to the end of its section.
    fn bytes_from(&self, addr: u64) -> Option<&'d [u8]> {
        let r = region_of(&self.regions, addr)?;
        Some(&r.bytes[(addr - r.addr) as usize..])
    }

    /// Sorts by address, keeps one function per start address (a symbol
    /// before an FDE, then the first name), clips each extent to its
    /// section, gives each its unique label.
    fn finish_functions(&mut self) {
        self.functions.sort_by_key(|f| (f.extent.start, f.origin));
        self.functions.dedup_by_key(|f| f.extent.start);
        self.fragments.sort_by_key(|r| r.start);
        self.fragments.dedup_by_key(|r| r.start);
        for f in &mut self.functions {
            if let Some(r) = region_of(&self.regions, f.extent.start) {
                f.extent.end = f.extent.end.min(r.addr + r.bytes.len() as u64);
            }
            f.fragment = self
                .fragments
                .binary_search_by_key(&f.extent.start, |r| r.start)
                .is_ok();
        }
        // Labels: the identifier of the name, first come (by address)
        // first served; then `.2`, `.3`, ... past the labels taken.
        let mut taken: FxHashSet<String> = FxHashSet::default();
        for f in &mut self.functions {
            let base = ident(&f.name);
            let mut label = base.clone();
            let mut k = 2;
            while taken.contains(&label) {
                label = format!("{base}.{k}");
                k += 1;
            }
            taken.insert(label.clone());
            f.label = label;
        }
        self.by_start = self
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| (f.extent.start, i as u32))
            .collect();
    }

    /// The functions, by address.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert!(bin.functions().windows(2).all(|w| w[0].extent.start < w[1].extent.start));
    /// ```
    pub fn functions(&self) -> &[FuncInfo] {
        &self.functions
    }

    /// The function starting at `addr`, if any.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let f = &bin.functions()[0];
    /// assert_eq!(bin.function_at(f.extent.start), Some(f));
    /// ```
    pub fn function_at(&self, addr: u64) -> Option<&FuncInfo> {
        self.by_start
            .get(&addr)
            .map(|&i| &self.functions[i as usize])
    }

    /// The function whose extent holds `addr`, if any (of overlapping
    /// extents, the one starting last before it).
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let f = bin.functions().iter().find(|f| f.name == "sum").unwrap();
    /// assert_eq!(bin.function_containing(f.extent.start + 3), Some(f));
    /// assert_eq!(bin.function_containing(0), None);
    /// ```
    pub fn function_containing(&self, addr: u64) -> Option<&FuncInfo> {
        let i = self
            .functions
            .partition_point(|f| f.extent.start <= addr)
            .checked_sub(1)?;
        let f = &self.functions[i];
        f.extent.contains(&addr).then_some(f)
    }

    /// The extent of the fragment FDE ([`FuncInfo::fragment`]) that holds
    /// `addr`, if any, clipped to its section.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let main = bin.functions().iter().find(|f| f.name == "main").unwrap();
    /// assert_eq!(bin.fragment_containing(main.extent.start), None);
    /// ```
    pub fn fragment_containing(&self, addr: u64) -> Option<Range<u64>> {
        let i = self
            .fragments
            .partition_point(|r| r.start <= addr)
            .checked_sub(1)?;
        let r = &self.fragments[i];
        let sec = region_of(&self.regions, r.start).filter(|s| s.exec)?;
        let end = r.end.min(sec.addr + sec.bytes.len() as u64);
        (addr < end).then_some(r.start..end)
    }

    /// Whether the walk of the function of `extent` continues at `addr`:
    /// `addr` lies in the extent, or in a fragment's
    /// ([`Binary::fragment_containing`]) other than the function's own.
    pub(crate) fn in_scope(&self, extent: &Range<u64>, addr: u64) -> bool {
        extent.contains(&addr)
            || (!self.fragments.is_empty()
                && self
                    .fragment_containing(addr)
                    .is_some_and(|r| r.start != extent.start))
    }

    /// Whether the binary has fragment FDEs ([`FuncInfo::fragment`]).
    ///
    /// ```
    /// use ssakit_x86::binary::Binary;
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// // Every FDE of the fixture starts a function (its CFA is rsp + 8).
    /// assert!(!Binary::parse(&elf).unwrap().has_fragments());
    /// // Most of python3.11's cold code is in fragments (where installed).
    /// if let Ok(elf) = std::fs::read("/usr/bin/python3.11") {
    ///     let bin = Binary::parse(&elf).unwrap();
    ///     assert!(bin.functions().iter().filter(|f| f.fragment).count() > 1000);
    /// }
    /// ```
    pub fn has_fragments(&self) -> bool {
        !self.fragments.is_empty()
    }

    /// The name of the PLT stub at `addr` (the imported symbol's name),
    /// if `addr` is one.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!(bin.plt_name(0), None);
    /// ```
    pub fn plt_name(&self, addr: u64) -> Option<&str> {
        self.plt_names.get(&addr).map(|s| s.as_str())
    }

    /// The address of the function the file itself defines under the
    /// symbol of the PLT stub at `addr` (libc's `free.plt`: libc's own
    /// `free`), if `addr` is such a stub; never of an `STT_GNU_IFUNC`
    /// symbol, whose address is its resolver's. The dynamic linker binds
    /// the stub to this definition unless another object interposes one
    /// of the same symbol.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!(bin.plt_definition(0), None);
    /// ```
    pub fn plt_definition(&self, addr: u64) -> Option<u64> {
        self.plt_defs.get(&addr).copied()
    }

    /// The symbol whose GOT slot is at `addr`, if any (a call through
    /// `[rip+X]` with `-fno-plt`).
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!(bin.got_name(0), None);
    /// ```
    pub fn got_name(&self, addr: u64) -> Option<&str> {
        self.got_names.get(&addr).map(|s| s.as_str())
    }

    /// The landing pad of a call at `addr` that unwinds, from the
    /// `.gcc_except_table` call sites ([`crate::except`]), if one covers
    /// it.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!(bin.landing_pad(bin.functions()[0].extent.start), None); // C: no pads
    /// ```
    pub fn landing_pad(&self, addr: u64) -> Option<u64> {
        self.except.pad_of(addr)
    }

    /// The calling convention of the binary's code: Go's register ABI
    /// for a file Go's toolchain built, else System V ([`crate::conv`]).
    ///
    /// ```
    /// # let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!(bin.convention(), ssakit_x86::conv::ConvKind::SystemV);
    /// ```
    pub fn convention(&self) -> crate::conv::ConvKind {
        self.conv
    }

    /// The exception tables read: call sites with a landing pad, and the
    /// LSDAs skipped as malformed.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!((bin.except_tables().pads(), bin.except_tables().skipped), (0, 0));
    /// ```
    pub fn except_tables(&self) -> &crate::except::ExceptTables {
        &self.except
    }

    /// The resolver of the IFUNC whose GOT slot the PLT stub at `addr`
    /// jumps through, if it is such a stub: the addend of the slot's
    /// `R_X86_64_IRELATIVE` relocation (libc's `*ABS*+0x9f1c0@plt`, one
    /// of `memcpy`'s), or the address of an `STT_GNU_IFUNC` symbol the
    /// file defines. The dynamic linker fills the slot with what the
    /// resolver returns.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!(bin.plt_resolver(0), None);
    /// ```
    pub fn plt_resolver(&self, addr: u64) -> Option<u64> {
        self.plt_resolvers.get(&addr).copied()
    }

    /// The PLT stubs whose symbol the file itself defines
    /// ([`Binary::plt_definition`]) or an IFUNC's resolver fills
    /// ([`Binary::plt_resolver`]), in no order.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!(bin.plt_stubs().count(), 0); // an executable calls only imports
    /// ```
    pub fn plt_stubs(&self) -> impl Iterator<Item = u64> + '_ {
        let resolved = self
            .plt_resolvers
            .keys()
            .filter(|s| !self.plt_defs.contains_key(s));
        self.plt_defs.keys().chain(resolved).copied()
    }

    /// Whether `addr` is inside a PLT section.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert!(!bin.in_plt(bin.functions()[0].extent.start));
    /// ```
    pub fn in_plt(&self, addr: u64) -> bool {
        self.plt.iter().any(|r| r.contains(&addr))
    }

    /// The executable sections outside the PLT, as (address, bytes), in
    /// address order: where functions' code can lie.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let main = bin.functions().iter().find(|f| f.name == "main").unwrap();
    /// assert!(bin
    ///     .code_sections()
    ///     .any(|(a, b)| (a..a + b.len() as u64).contains(&main.extent.start)));
    /// ```
    pub fn code_sections(&self) -> impl Iterator<Item = (u64, &'d [u8])> + '_ {
        self.regions
            .iter()
            .filter(|r| r.exec && !self.in_plt(r.addr))
            .map(|r| (r.addr, r.bytes))
    }

    /// Adds the functions [`crate::discover`] found (starts no function
    /// has) and gives them their labels; the functions already there
    /// keep theirs.
    pub(crate) fn add_discovered(&mut self, found: Vec<FuncInfo>) {
        self.functions.extend(found);
        self.finish_functions();
    }

    /// The loaded sections that are not code, as (address, bytes).
    pub(crate) fn data_sections(&self) -> impl Iterator<Item = (u64, &'d [u8])> + '_ {
        self.regions
            .iter()
            .filter(|r| !r.exec)
            .map(|r| (r.addr, r.bytes))
    }

    pub(crate) fn is_code(&self, addr: u64) -> bool {
        region_of(&self.regions, addr).is_some_and(|r| r.exec)
    }

    /// The code bytes from `addr` to the end of its executable section.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// assert_eq!(bin.code(0), None);
    /// ```
    pub fn code(&self, addr: u64) -> Option<&'d [u8]> {
        let r = region_of(&self.regions, addr).filter(|r| r.exec)?;
        Some(&r.bytes[(addr - r.addr) as usize..])
    }

    /// `len` bytes of loaded contents (code or data) at `addr`, if they
    /// lie in one section.
    ///
    /// ```
    /// let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixture/fixture")).unwrap();
    /// let bin = ssakit_x86::binary::Binary::parse(&elf).unwrap();
    /// let main = bin.functions().iter().find(|f| f.name == "main").unwrap();
    /// assert_eq!(bin.read(main.extent.start, 1).map(|b| b.len()), Some(1));
    /// ```
    pub fn read(&self, addr: u64, len: usize) -> Option<&'d [u8]> {
        let r = region_of(&self.regions, addr)?;
        let off = (addr - r.addr) as usize;
        r.bytes.get(off..off.checked_add(len)?)
    }
}

#[cfg(test)]
impl<'d> Binary<'d> {
    /// A binary of `sections` (address, contents, whether executable)
    /// and no function: the unit tests of the modules that read code and
    /// data (the jump-table matcher) build theirs without an ELF file.
    pub(crate) fn of_sections(sections: &[(u64, &'d [u8], bool)]) -> Binary<'d> {
        let mut regions: Vec<Region<'d>> = sections
            .iter()
            .map(|&(addr, bytes, exec)| Region { addr, bytes, exec })
            .collect();
        regions.sort_by_key(|r| r.addr);
        Binary {
            regions,
            plt: Vec::new(),
            plt_names: FxHashMap::default(),
            got_names: FxHashMap::default(),
            got_defs: FxHashMap::default(),
            plt_defs: FxHashMap::default(),
            got_resolvers: FxHashMap::default(),
            plt_resolvers: FxHashMap::default(),
            functions: Vec::new(),
            by_start: FxHashMap::default(),
            build_id: None,
            debuglink_crc: None,
            has_sections: true,
            has_eh_frame: false,
            except: Default::default(),
            conv: crate::conv::ConvKind::SystemV,
            fragments: Vec::new(),
            roots: Roots::default(),
        }
    }

    /// The same binary with `functions` (in address order).
    pub(crate) fn with_functions(mut self, functions: Vec<FuncInfo>) -> Binary<'d> {
        self.by_start = functions
            .iter()
            .enumerate()
            .map(|(k, f)| (f.extent.start, k as u32))
            .collect();
        self.functions = functions;
        self
    }
}

impl Roots {
    /// The entry points and stored addresses section `name` holds.
    fn read_section(&mut self, name: &str, addr: u64, bytes: &[u8]) {
        match name {
            ".init" | ".fini" => self.entries.push(addr),
            ".init_array" | ".fini_array" | ".preinit_array" => self.pointers.extend(
                bytes
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))),
            ),
            _ => {}
        }
    }

    /// The addends of the relative relocations (`.rela.dyn`).
    fn read_relocations(&mut self, file: &ElfFile64<'_, LE>) {
        let Some(relocs) = file.dynamic_relocations() else {
            return;
        };
        for (_, rel) in relocs {
            if let object::RelocationFlags::Elf { r_type } = rel.flags() {
                if r_type == R_X86_64_RELATIVE || r_type == R_X86_64_IRELATIVE {
                    self.relocated |= r_type == R_X86_64_RELATIVE;
                    self.pointers.push(rel.addend() as u64);
                }
            }
        }
    }
}

/// Whether `fde` describes a fragment ([`FuncInfo::fragment`]): the CFA
/// rule of its first row (the CIE's initial instructions and the FDE's
/// up to the first advance) is not `rsp + 8`. Unreadable instructions
/// say no.
fn is_fragment<R: gimli::Reader>(
    eh: &gimli::EhFrame<R>,
    bases: &gimli::BaseAddresses,
    fde: &gimli::FrameDescriptionEntry<R>,
    ctx: &mut gimli::UnwindContext<R::Offset>,
) -> bool {
    let Ok(mut rows) = fde.rows(eh, bases, ctx) else {
        return false;
    };
    match rows.next_row() {
        Ok(Some(row)) => !matches!(
            row.cfa(),
            gimli::CfaRule::RegisterAndOffset { register, offset: 8 } if *register == gimli::X86_64::RSP
        ),
        _ => false,
    }
}

fn region_of<'a, 'd>(regions: &'a [Region<'d>], addr: u64) -> Option<&'a Region<'d>> {
    let i = regions.partition_point(|r| r.addr <= addr).checked_sub(1)?;
    let r = &regions[i];
    (addr - r.addr < r.bytes.len() as u64).then_some(r)
}

fn covers(sorted: &[Range<u64>], addr: u64) -> bool {
    let i = sorted.partition_point(|r| r.start <= addr);
    i > 0 && sorted[i - 1].end > addr
}

#[cfg(test)]
mod tests {
    //! The header checks on ELF files built here, byte by byte: each
    //! refusal has its kind, its field and its byte offset.

    use super::*;

    /// Writes the `n`-byte little-endian `v` at `at`.
    fn put(buf: &mut [u8], at: usize, n: usize, v: u64) {
        buf[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
    }

    /// A section of a test file.
    struct Sec {
        name: &'static str,
        ty: u64,
        flags: u64,
        addr: u64,
        data: Vec<u8>,
        link: u64,
        entsize: u64,
    }

    impl Sec {
        fn new(name: &'static str, ty: u64, data: Vec<u8>) -> Sec {
            Sec {
                name,
                ty,
                flags: 0,
                addr: 0,
                data,
                link: 0,
                entsize: 0,
            }
        }
    }

    /// `.text` at 0x1000: `xor eax, eax; ret`.
    fn text() -> Sec {
        Sec {
            flags: SHF_ALLOC | SHF_EXECINSTR,
            addr: 0x1000,
            ..Sec::new(".text", 1, vec![0x31, 0xc0, 0xc3])
        }
    }

    /// `.symtab` (linked to section 3, `.strtab`) with the function `f`
    /// of `.text` (section 1), and that `.strtab`.
    fn symbols() -> [Sec; 2] {
        let mut symtab = vec![0u8; 48];
        put(&mut symtab, 24, 4, 1); // st_name: "f"
        symtab[24 + 4] = 0x12; // STB_GLOBAL, STT_FUNC
        put(&mut symtab, 24 + 6, 2, 1); // st_shndx: .text
        put(&mut symtab, 24 + 8, 8, 0x1000); // st_value
        put(&mut symtab, 24 + 16, 8, 3); // st_size
        let symtab = Sec {
            link: 3,
            entsize: 24,
            ..Sec::new(".symtab", SHT_SYMTAB, symtab)
        };
        [symtab, Sec::new(".strtab", SHT_STRTAB, b"\0f\0".to_vec())]
    }

    /// An x86-64 executable: the file header, the sections' contents, a
    /// section name table and the section header table (a null section,
    /// `secs`, the name table), no program header. No section at all
    /// gives the file header alone (`e_shnum` 0).
    fn elf(secs: &[Sec]) -> Vec<u8> {
        let mut f = vec![0u8; EHDR_SIZE as usize];
        f[..4].copy_from_slice(ELFMAG);
        (f[EI_CLASS], f[EI_DATA], f[6]) = (ELFCLASS64, ELFDATA2LSB, 1);
        put(&mut f, E_TYPE, 2, ET_EXEC);
        put(&mut f, E_MACHINE, 2, EM_X86_64);
        put(&mut f, 0x14, 4, 1); // e_version
        put(&mut f, 0x34, 2, EHDR_SIZE); // e_ehsize
        put(&mut f, E_PHENTSIZE, 2, PHDR_SIZE);
        put(&mut f, E_SHENTSIZE, 2, SHDR_SIZE);
        if secs.is_empty() {
            return f;
        }
        let mut names = vec![0u8];
        let mut headers = Vec::new();
        for s in secs {
            headers.push((names.len(), f.len(), s));
            names.extend(s.name.as_bytes());
            names.push(0);
            f.extend(&s.data);
        }
        let shstrtab = Sec::new(".shstrtab", SHT_STRTAB, Vec::new());
        headers.push((names.len(), f.len(), &shstrtab));
        names.extend(b".shstrtab\0");
        f.extend(&names);
        f.resize(f.len().next_multiple_of(8), 0);
        let shoff = f.len();
        f.resize(shoff + SHDR_SIZE as usize, 0); // the null section
        for (k, &(name, off, s)) in headers.iter().enumerate() {
            let mut h = [0u8; SHDR_SIZE as usize];
            put(&mut h, 0, 4, name as u64);
            put(&mut h, SH_TYPE, 4, s.ty);
            put(&mut h, SH_FLAGS, 8, s.flags);
            put(&mut h, 0x10, 8, s.addr); // sh_addr
            put(&mut h, SH_OFFSET, 8, off as u64);
            let size = if k == secs.len() {
                names.len()
            } else {
                s.data.len()
            };
            put(&mut h, SH_SIZE, 8, size as u64);
            put(&mut h, SH_LINK, 4, s.link);
            put(&mut h, 0x2c, 4, (s.ty == SHT_SYMTAB) as u64); // sh_info
            put(&mut h, 0x30, 8, 1); // sh_addralign
            put(&mut h, SH_ENTSIZE, 8, s.entsize);
            f.extend(h);
        }
        put(&mut f, E_SHOFF, 8, shoff as u64);
        put(&mut f, E_SHNUM, 2, headers.len() as u64 + 1);
        put(&mut f, E_SHSTRNDX, 2, headers.len() as u64);
        f
    }

    /// The file with its `.text`, `.symtab` and `.strtab`.
    fn with_symbols() -> Vec<u8> {
        let [symtab, strtab] = symbols();
        elf(&[text(), symtab, strtab])
    }

    /// The kind and offset of the refusal of `d`.
    fn refusal(d: &[u8]) -> (ErrorKind, u64) {
        let Err(e) = Binary::parse(d) else {
            panic!("not refused")
        };
        let at = e.offset.expect("an offset");
        assert!(e.to_string().starts_with(&format!("byte offset {at:#x}: ")));
        (e.kind, at)
    }

    /// The file offset of field `field` of section header `i` of `d`.
    fn sh_field(d: &[u8], i: u64, field: usize) -> u64 {
        SectionHeader::nth(d, i).field(field) as u64
    }

    #[test]
    fn a_built_file_is_read_with_its_function() {
        let d = with_symbols();
        let bin = Binary::parse(&d).unwrap();
        let names: Vec<(&str, Range<u64>)> = bin
            .functions()
            .iter()
            .map(|f| (f.name.as_str(), f.extent.clone()))
            .collect();
        assert_eq!(names, [("f", 0x1000..0x1003)]);
        assert_eq!(bin.check_functions(), Ok(()));
        assert_eq!(bin.code(0x1001), Some(&[0xc0, 0xc3][..]));
    }

    #[test]
    fn no_function_is_refused_by_its_kind() {
        for (secs, why) in [
            (Vec::new(), "no section headers"),
            (vec![text()], "no symbol of a function and no `.eh_frame` ("),
        ] {
            let d = elf(&secs);
            let e = Binary::parse(&d).unwrap().check_functions().unwrap_err();
            assert_eq!((e.kind, e.offset), (ErrorKind::NoFunctions, None));
            assert!(e.message.contains(why), "{e}");
        }
    }

    /// Every prefix of the file header: not ELF below the magic number,
    /// else a truncated header, at the end of what there is.
    #[test]
    fn a_truncated_header_is_refused_at_its_end() {
        let d = elf(&[]);
        for len in 0..EHDR_SIZE {
            let kind = match len {
                0..4 => ErrorKind::NotElf,
                _ => ErrorKind::Malformed(Field::Header),
            };
            assert_eq!(refusal(&d[..len as usize]), (kind, len), "{len} bytes");
        }
        assert_eq!(refusal(b"MZ\x90\0"), (ErrorKind::NotElf, 4));
    }

    /// The identification, field by field: each other value is
    /// unsupported, at its field.
    #[test]
    fn the_identification_is_checked_field_by_field() {
        let cases: [(usize, usize, u64, Field); 7] = [
            (EI_CLASS, 1, 1, Field::Class),      // ELFCLASS32
            (EI_DATA, 1, 2, Field::ByteOrder),   // ELFDATA2MSB
            (E_MACHINE, 2, 3, Field::Machine),   // EM_386
            (E_MACHINE, 2, 183, Field::Machine), // EM_AARCH64
            (E_TYPE, 2, ET_REL, Field::Type),    // a `.o` file
            (E_TYPE, 2, ET_CORE, Field::Type),   // a core file
            (E_TYPE, 2, 0, Field::Type),         // ET_NONE
        ];
        for (at, n, v, field) in cases {
            let mut d = with_symbols();
            put(&mut d, at, n, v);
            let kind = ErrorKind::Unsupported(field);
            assert_eq!(refusal(&d), (kind, at as u64), "{field:?} {v}");
        }
        let mut d = with_symbols();
        put(&mut d, E_TYPE, 2, ET_DYN);
        assert!(Binary::parse(&d).is_ok(), "a shared object is read");
    }

    /// The tables the file header locates, and the section headers'
    /// fields: each refusal at the field that is wrong.
    #[test]
    fn a_malformed_table_is_refused_at_its_field() {
        let d = with_symbols();
        let len = d.len() as u64;
        let text_size = sh_field(&d, 1, SH_SIZE) as usize;
        let text_addr = sh_field(&d, 1, 0x10) as usize;
        let symtab_link = sh_field(&d, 2, SH_LINK) as usize;
        let cases: [(usize, usize, u64, Field, u64); 9] = [
            (E_PHENTSIZE, 2, 20, Field::ProgramHeaders, E_PHOFF as u64),
            (E_PHOFF, 8, len, Field::ProgramHeaders, E_PHOFF as u64),
            (E_SHOFF, 8, len, Field::SectionHeaders, E_SHOFF as u64),
            (E_SHENTSIZE, 2, 32, Field::SectionHeaders, E_SHOFF as u64),
            (
                E_SHENTSIZE,
                2,
                60,
                Field::SectionHeaders,
                E_SHENTSIZE as u64,
            ),
            (E_SHSTRNDX, 2, 9, Field::SectionNames, E_SHSTRNDX as u64),
            (
                text_size,
                8,
                len,
                Field::SectionContents,
                sh_field(&d, 1, 0),
            ),
            (
                text_addr,
                8,
                u64::MAX - 1,
                Field::SectionAddress,
                sh_field(&d, 1, 0),
            ),
            (symtab_link, 4, 0, Field::SectionLink, symtab_link as u64),
        ];
        for (at, n, v, field, want) in cases {
            let mut m = d.clone();
            put(&mut m, at, n, v);
            if field == Field::ProgramHeaders {
                put(&mut m, E_PHNUM, 2, 1);
            }
            let what = format!("{field:?}: {v} at {at:#x}");
            assert_eq!(refusal(&m), (ErrorKind::Malformed(field), want), "{what}");
        }
    }

    /// `.eh_frame` contents that are no call frame information (an entry
    /// longer than the section): refused at the section's contents.
    #[test]
    fn a_bad_eh_frame_is_refused_at_its_contents() {
        let eh_frame = Sec {
            flags: SHF_ALLOC,
            addr: 0x2000,
            ..Sec::new(".eh_frame", 1, vec![0xf0, 0xff, 0xff, 0x7f, 0, 0, 0, 0])
        };
        let d = elf(&[text(), eh_frame]);
        let kind = ErrorKind::Malformed(Field::EhFrame);
        assert_eq!(refusal(&d), (kind, SectionHeader::nth(&d, 2).offset()));
    }

    /// `.eh_frame` at `at`: a CIE (CFA `rsp + 8`, the return address at
    /// CFA - 8) and one FDE per `(start, length, cfa offset)`, whose
    /// instructions set the CFA's offset at its first address when it
    /// is not 8 (`DW_CFA_def_cfa_offset`).
    fn eh_frame(at: u64, fdes: &[(u64, u32, u8)]) -> Vec<u8> {
        let mut e = vec![
            20, 0, 0, 0, 0, 0, 0, 0, 1, b'z', b'R', 0, 1, 0x78, 0x10, 1, 0x1b,
        ];
        e.extend([0x0c, 0x07, 0x08, 0x90, 0x01, 0, 0]); // def_cfa rsp+8; offset r16; nops
        for &(start, len, cfa) in fdes {
            let here = e.len();
            e.extend([16, 0, 0, 0]);
            e.extend(((here + 4) as u32).to_le_bytes()); // back to the CIE
            let pc = at + e.len() as u64;
            e.extend((start.wrapping_sub(pc) as u32).to_le_bytes());
            e.extend(len.to_le_bytes());
            e.push(0); // no augmentation data
            match cfa {
                8 => e.extend([0, 0, 0]),
                n => e.extend([0x0e, n, 0]), // def_cfa_offset n
            }
        }
        e
    }

    /// An FDE whose CFA at its first address is `rsp + 56` is a fragment
    /// (a `.cold` part entered mid-function), one with `rsp + 8` a
    /// function; [`Binary::fragment_containing`] finds the fragment by
    /// any of its addresses.
    #[test]
    fn a_fragment_is_told_by_its_cfa() {
        let text = Sec {
            flags: SHF_ALLOC | SHF_EXECINSTR,
            addr: 0x1000,
            ..Sec::new(".text", 1, vec![0x31, 0xc0, 0xc3, 0x90, 0x31, 0xc0, 0xc3])
        };
        let eh_frame = Sec {
            flags: SHF_ALLOC,
            addr: 0x2000,
            ..Sec::new(
                ".eh_frame",
                1,
                eh_frame(0x2000, &[(0x1000, 3, 8), (0x1004, 3, 56)]),
            )
        };
        let d = elf(&[text, eh_frame]);
        let bin = Binary::parse(&d).unwrap();
        let got: Vec<(u64, bool)> = bin
            .functions()
            .iter()
            .map(|f| (f.extent.start, f.fragment))
            .collect();
        assert_eq!(got, [(0x1000, false), (0x1004, true)]);
        assert_eq!(bin.fragment_containing(0x1006), Some(0x1004..0x1007));
        assert_eq!(bin.fragment_containing(0x1002), None);
        assert_eq!(bin.fragment_containing(0x1007), None);
        let main = 0x1000..0x1003;
        assert!(bin.in_scope(&main, 0x1005) && !bin.in_scope(&(0x1004..0x1007), 0x1001));
    }

    /// A relocation section may link to no symbol table (0), not to a
    /// string table.
    #[test]
    fn a_relocation_section_links_to_a_symbol_table_or_none() {
        let [symtab, strtab] = symbols();
        let rela = |link| Sec {
            link,
            entsize: 24,
            ..Sec::new(".rela.text", SHT_RELA, Vec::new())
        };
        assert!(Binary::parse(&elf(&[text(), symtab, strtab, rela(0)])).is_ok());
        let [symtab, strtab] = symbols();
        let d = elf(&[text(), symtab, strtab, rela(3)]);
        let kind = ErrorKind::Malformed(Field::SectionLink);
        assert_eq!(refusal(&d), (kind, sh_field(&d, 4, SH_LINK)));
    }
}
