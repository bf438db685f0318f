//! The pieces of the minimal ELF files the tests build byte by byte
//! (`scale.rs`, `stack.rs`): a section header and the file header of an
//! x86-64 `ET_EXEC` file without program headers.

/// One 64-byte section header (`Elf64_Shdr`), 16-byte aligned.
#[allow(clippy::too_many_arguments, dead_code)]
pub fn section_header(
    name: u32,
    ty: u32,
    flags: u64,
    addr: u64,
    off: usize,
    size: usize,
    link: u32,
    info: u32,
    ent: u64,
) -> Vec<u8> {
    let mut s = Vec::new();
    s.extend(name.to_le_bytes());
    s.extend(ty.to_le_bytes());
    s.extend(flags.to_le_bytes());
    s.extend(addr.to_le_bytes());
    s.extend((off as u64).to_le_bytes());
    s.extend((size as u64).to_le_bytes());
    s.extend(link.to_le_bytes());
    s.extend(info.to_le_bytes());
    s.extend(16u64.to_le_bytes());
    s.extend(ent.to_le_bytes());
    s
}

/// The 64-byte file header: x86-64, `ET_EXEC`, entry `entry`, no program
/// headers, `shnum` section headers at `sh_off`, the names in section
/// `shstrndx`.
#[allow(dead_code)]
pub fn file_header(entry: u64, sh_off: usize, shnum: u16, shstrndx: u16) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0");
    h.extend(2u16.to_le_bytes()); // ET_EXEC
    h.extend(62u16.to_le_bytes()); // x86-64
    h.extend(1u32.to_le_bytes());
    h.extend(entry.to_le_bytes());
    h.extend(0u64.to_le_bytes()); // no program headers
    h.extend((sh_off as u64).to_le_bytes());
    h.extend(0u32.to_le_bytes());
    h.extend(64u16.to_le_bytes());
    h.extend(56u16.to_le_bytes());
    h.extend(0u16.to_le_bytes());
    h.extend(64u16.to_le_bytes());
    h.extend(shnum.to_le_bytes());
    h.extend(shstrndx.to_le_bytes());
    assert_eq!(h.len(), 64);
    h
}

/// Appends the symbol table, its strings and the section names to `f`,
/// then pads it to 8 bytes for the section headers: their offsets
/// `[symtab, strtab, shstrtab, section headers]`.
#[allow(dead_code)]
pub fn append_tables(f: &mut Vec<u8>, symtab: &[u8], strtab: &[u8], shstrtab: &[u8]) -> [usize; 4] {
    let mut at = [0; 4];
    for (k, table) in [symtab, strtab, shstrtab].into_iter().enumerate() {
        at[k] = f.len();
        f.extend(table);
    }
    f.resize((f.len() + 7) & !7, 0);
    at[3] = f.len();
    at
}
