//! Operators and callees, interned once per module.
//!
//! A generic [operation](super::InstData::Op) names its operator by an
//! [`Operator`] key into a table of [`OperatorData`] (name and
//! [`Effects`]), and a call names its callee by a [`Callee`] key into a
//! table of names: no instruction holds a string. The table ([`Symbols`]) is
//! shared by the functions of a module through an [`Arc`], so the
//! functions of a module can be transformed in parallel while they read it;
//! adding a symbol to a shared table copies it first ([`Arc::make_mut`]).

use super::{Effects, Opcode};
use crate::entity::EntityVec;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// Room reserved for the operators of a table at its first: a lifted
/// function declares about 18.
const OPERATORS_RESERVED: usize = 32;

crate::entity_ref!(
    /// An operator of the module's [`Symbols`] table.
    Operator,
    "op"
);
crate::entity_ref!(
    /// A callee name of the module's [`Symbols`] table.
    Callee,
    "fn"
);

/// An operator: its name (`i32.add`, `f64.load`), effects, and its
/// meaning when the name is one of the [operation set](super::Opcode).
///
/// ```
/// use ssakit::ir::{Effects, Opcode, Symbols};
/// let mut s = Symbols::new();
/// s.operator("i32.load", Effects::TRAP.union(Effects::READ)).unwrap();
/// let (_, data) = s.operators().next().unwrap();
/// assert_eq!((&*data.name, data.effects.to_string()), ("i32.load", "trap read".to_string()));
/// assert_eq!(data.opcode, Some(Opcode::I32Load));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct OperatorData {
    /// The name, as written in the text format (a name of the
    /// [operation set](super::Opcode) is the set's own string, not a copy).
    pub name: Cow<'static, str>,
    /// What executing it may do besides computing its results.
    pub effects: Effects,
    /// The operation of the set the name names (`None`: a generic
    /// operator, with no meaning beyond its effects).
    pub opcode: Option<Opcode>,
}

/// An operator named twice with different effects.
///
/// ```
/// use ssakit::ir::{Effects, Symbols};
/// let mut s = Symbols::new();
/// s.operator("f", Effects::PURE).unwrap();
/// let e = s.operator("f", Effects::WRITE).unwrap_err();
/// assert_eq!((e.name.as_str(), e.existing, e.requested), ("f", Effects::PURE, Effects::WRITE));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EffectsConflict {
    /// The operator's name.
    pub name: String,
    /// The effects it already has.
    pub existing: Effects,
    /// The effects asked for.
    pub requested: Effects,
}

impl fmt::Display for EffectsConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "operator `{}` is declared `{}`, not `{}`",
            self.name, self.existing, self.requested
        )
    }
}

impl std::error::Error for EffectsConflict {}

/// The interned operators and callee names of a module.
///
/// ```
/// use ssakit::ir::{Effects, Symbols};
/// let mut s = Symbols::new();
/// let add = s.operator("i32.add", Effects::PURE).unwrap();
/// let g = s.callee("g");
/// assert_eq!(
///     (s.callee_name(g), s.operators().next().map(|(o, _)| o)),
///     ("g", Some(add))
/// );
/// ```
#[derive(Clone, Default, Debug)]
pub struct Symbols {
    operators: EntityVec<Operator, OperatorData>,
    /// The names, each shared with its key in `callee_index`.
    callees: EntityVec<Callee, Arc<str>>,
    /// The operators that have no [`Opcode`]: names outside the set, and
    /// names of the set declared with other effects.
    operator_index: FxHashMap<Box<str>, Operator>,
    /// The operators that have one, by [`Opcode`] (empty until the first):
    /// a lift declares a score of them per function, each without hashing
    /// or copying its name for a key.
    by_opcode: Vec<Option<Operator>>,
    callee_index: FxHashMap<Arc<str>, Callee>,
}

impl PartialEq for Symbols {
    fn eq(&self, other: &Self) -> bool {
        self.operators == other.operators && self.callees == other.callees
    }
}
impl Eq for Symbols {}

impl Symbols {
    /// An empty table.
    ///
    /// ```
    /// use ssakit::ir::Symbols;
    /// let s = Symbols::new();
    /// assert_eq!((s.operators().count(), s.num_callees()), (0, 0));
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The operator named `name`, added with `effects` if new.
    ///
    /// A name of the [operation set](super::Opcode) declared with the
    /// set's effects gets its meaning; with other effects it is a generic
    /// operator, with no meaning beyond them.
    ///
    /// # Errors
    /// If `name` is already an operator with other effects.
    ///
    /// ```
    /// use ssakit::ir::{Effects, Symbols};
    /// let mut s = Symbols::new();
    /// let a = s.operator("i32.add", Effects::PURE).unwrap();
    /// assert_eq!(s.operator("i32.add", Effects::PURE), Ok(a));
    /// assert!(s.operator("i32.add", Effects::TRAP).is_err());
    /// let div = s.operator("i32.div_u", Effects::TRAP).unwrap();
    /// let mine = s.operator("i32.rem_u", Effects::PURE).unwrap(); // not the set's effects
    /// let opcode = |o| s.operators().find(|(k, _)| *k == o).unwrap().1.opcode;
    /// assert_eq!((opcode(div), opcode(mine)), (Some(ssakit::ir::Opcode::I32DivU), None));
    /// ```
    pub fn operator(&mut self, name: &str, effects: Effects) -> Result<Operator, EffectsConflict> {
        let named = Opcode::from_name(name);
        if let Some(op) = self.find(name, named) {
            let existing = self.operators[op].effects;
            if existing != effects {
                return Err(EffectsConflict {
                    name: name.to_string(),
                    existing,
                    requested: effects,
                });
            }
            return Ok(op);
        }
        // Declared with other effects, a name of the set is a generic
        // operator of the user's.
        let opcode = named.filter(|o| o.effects() == effects);
        if self.operators.as_slice().is_empty() {
            // A function's own table: about a score of operators.
            self.operators.reserve_exact(OPERATORS_RESERVED);
        }
        let op = self.operators.push(OperatorData {
            name: match named {
                Some(o) => Cow::Borrowed(o.name()),
                None => Cow::Owned(name.into()),
            },
            effects,
            opcode,
        });
        match opcode {
            Some(o) => {
                if self.by_opcode.is_empty() {
                    self.by_opcode = vec![None; Opcode::ALL.len()];
                }
                self.by_opcode[o as usize] = Some(op);
            }
            None => {
                self.operator_index.insert(name.into(), op);
            }
        }
        Ok(op)
    }

    /// The operator named `name`, whose operation of the set is `opcode`
    /// (`Opcode::from_name(name)`), if any.
    #[inline]
    fn find(&self, name: &str, opcode: Option<Opcode>) -> Option<Operator> {
        if let Some(&Some(op)) = opcode.and_then(|o| self.by_opcode.get(o as usize)) {
            return Some(op);
        }
        if self.operator_index.is_empty() {
            return None;
        }
        self.operator_index.get(name).copied()
    }

    /// The operator named `name`, if any.
    ///
    /// ```
    /// use ssakit::ir::Symbols;
    /// assert_eq!(Symbols::new().find_operator("i32.add"), None);
    /// ```
    pub fn find_operator(&self, name: &str) -> Option<Operator> {
        self.find(name, Opcode::from_name(name))
    }

    /// The callee named `name`, added if new.
    ///
    /// ```
    /// use ssakit::ir::Symbols;
    /// let mut s = Symbols::new();
    /// let g = s.callee("g");
    /// assert_eq!((s.callee("g"), s.num_callees()), (g, 1));
    /// ```
    pub fn callee(&mut self, name: &str) -> Callee {
        if let Some(&c) = self.callee_index.get(name) {
            return c;
        }
        let name: Arc<str> = name.into();
        let c = self.callees.push(name.clone());
        self.callee_index.insert(name, c);
        c
    }

    /// The callee named `name`, if any.
    ///
    /// ```
    /// use ssakit::ir::Symbols;
    /// let mut s = Symbols::new();
    /// s.callee("g");
    /// assert!(s.find_callee("g").is_some() && s.find_callee("h").is_none());
    /// ```
    pub fn find_callee(&self, name: &str) -> Option<Callee> {
        self.callee_index.get(name).copied()
    }

    /// An operator's name and effects.
    pub(crate) fn operator_data(&self, op: Operator) -> &OperatorData {
        &self.operators[op]
    }

    /// A callee's name.
    ///
    /// ```
    /// use ssakit::ir::Symbols;
    /// let mut s = Symbols::new();
    /// let c = s.callee("ext");
    /// assert_eq!(s.callee_name(c), "ext");
    /// ```
    pub fn callee_name(&self, c: Callee) -> &str {
        &self.callees[c]
    }

    /// Every operator, in the order added.
    ///
    /// ```
    /// use ssakit::ir::{Effects, Symbols};
    /// let mut s = Symbols::new();
    /// s.operator("b", Effects::PURE).unwrap();
    /// s.operator("a", Effects::PURE).unwrap();
    /// let names: Vec<&str> = s.operators().map(|(_, d)| &*d.name).collect();
    /// assert_eq!(names, ["b", "a"]);
    /// ```
    pub fn operators(&self) -> impl Iterator<Item = (Operator, &OperatorData)> {
        self.operators.iter()
    }

    /// Number of operators.
    pub(crate) fn num_operators(&self) -> usize {
        self.operators.len()
    }

    /// Number of callees.
    ///
    /// ```
    /// use ssakit::ir::Symbols;
    /// let mut s = Symbols::new();
    /// s.callee("f");
    /// s.callee("g");
    /// assert_eq!(s.num_callees(), 2);
    /// ```
    pub fn num_callees(&self) -> usize {
        self.callees.len()
    }
}

/// A shared, copy-on-write symbol table.
pub type SharedSymbols = Arc<Symbols>;
