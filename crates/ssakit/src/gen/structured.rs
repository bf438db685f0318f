//! Random structured control flow, composed with an explicit work stack.
//!
//! A *region* is a single-entry piece of code of exactly `n` blocks that
//! starts at a given block and leaves by jumping to a given continuation
//! `cont`. A region of one block is straight-line code; a larger one is cut
//! into one of the structures below, whose parts are smaller regions:
//!
//! ```text
//!  sequence      diamond            switch           while loop       repeat-until     two-entry loop
//!                                                                                      (irreducible)
//!   [R1]          start              start           start: k = ..    start: k = ..     pre: k = ..
//!    |           /     \           /   |   \            |                 |             /        \
//!   [R2]      [then] [else]    [case][case] ...  +-> head: k > 0?   +-> [body]       [C0] --> [C1] -> ...
//!    |           \     /           \   |   /     |     |      \     |     |           ^   \ -> [Ce]
//!   cont         [join]            [join]        |  [body]    after |  latch: k--     |          |
//!                  |                  |          |     |            +-- k > 0?      latch: k-- <-+
//!                 cont               cont        +- latch: k--          |           k > 0? -> after
//!                                                                     after
//! ```
//!
//! (`[R]` is a sub-region; the else part, the joins and the code after a
//! loop may be empty, in which case the edges go straight to `cont`.) In the
//! two-entry loop the pre-header branches (or switches) both to `C0` and to a
//! later `Ce`, so neither dominates the other: the cycle is irreducible.
//!
//! Inside a loop a one-block region may also *break* (branch to the loop's
//! exit) or *continue* (branch to its latch). Every loop is bounded by its
//! own counter `k`: set before the loop from constants and `a & 3`-style
//! masks (at most [`MAX_TRIPS`] iterations), stepped only in the loop's
//! latch, which every iteration passes, and tested there or in the header.
//! Loops nest at most [`Profile::max_loop_depth`] deep, so the dynamic
//! instruction count is at most `MAX_TRIPS^depth` times the static one.
//!
//! The work stack holds the regions still to fill and the latches still to
//! emit. Parts are pushed in reverse so that they pop, and are laid out, in
//! program order; a latch is pushed under its loop's body so that it comes
//! right after it. Nothing recurses: a million blocks need a million small
//! stack entries at most, never native stack.

use super::sketch::{Counter, Ctx, Exit, Sketch, MAX_TRIPS};
use crate::ir::{Block, Operand, Var};

/// How often each structure is chosen, and the code inside blocks.
#[derive(Clone, Copy, Debug)]
pub(super) struct Profile {
    /// Weight of a sequence of two regions (must be non-zero).
    pub(crate) seq: u32,
    /// Weight of an if-then(-else) diamond.
    pub(crate) diamond: u32,
    /// Weight of a switch with two to four cases.
    pub(crate) switch: u32,
    /// Weight of a counted while loop.
    pub(crate) while_loop: u32,
    /// Weight of a counted repeat-until loop.
    pub(crate) do_while: u32,
    /// Weight of a two-entry (irreducible) loop. When non-zero, the first
    /// region of 4 to `big` blocks is always one.
    pub(crate) irreducible: u32,
    /// Loops nest at most this deep.
    pub(crate) max_loop_depth: u8,
    /// Regions of more blocks than this are only cut into sequences,
    /// diamonds and switches, keeping loops (and their trip counts) local.
    pub(crate) big: u32,
    /// Assignments per block, inclusive range.
    pub(crate) assigns: (u32, u32),
    /// The entry also assigns every other wild variable.
    pub(crate) init_wild: bool,
    /// The exit prints every `v` variable, not only eight.
    pub(crate) print_all: bool,
}

/// The `random` shape.
pub(super) const RANDOM: Profile = Profile {
    seq: 3,
    diamond: 3,
    switch: 1,
    while_loop: 2,
    do_while: 2,
    irreducible: 0,
    max_loop_depth: 3,
    big: 48,
    assigns: (1, 3),
    init_wild: false,
    print_all: false,
};

/// The `irreducible` shape: mostly two-entry loops.
pub(super) const IRREDUCIBLE: Profile = Profile {
    seq: 2,
    diamond: 2,
    switch: 0,
    while_loop: 1,
    do_while: 0,
    irreducible: 4,
    max_loop_depth: 3,
    big: 48,
    assigns: (1, 3),
    init_wild: false,
    print_all: false,
};

/// The `many-vars` shape: more assignments per block, every variable
/// printed at the exit so that all stay live.
pub(super) const MANY_VARS: Profile = Profile {
    seq: 4,
    diamond: 4,
    switch: 1,
    while_loop: 1,
    do_while: 1,
    irreducible: 0,
    max_loop_depth: 2,
    big: 48,
    assigns: (2, 5),
    init_wild: true,
    print_all: true,
};

/// The innermost enclosing loop, for break, continue and counter reads.
#[derive(Clone, Copy, Debug)]
struct Loop {
    exit: Block,
    latch: Block,
    counter: Var,
}

/// A region to fill: `n` blocks from `start`, leaving to `cont`.
#[derive(Clone, Copy, Debug)]
struct Region {
    start: Block,
    n: u32,
    cont: Block,
    depth: u8,
    lp: Option<Loop>,
}

impl Region {
    fn ctx(&self) -> Ctx {
        Ctx {
            counter: self.lp.map(|l| l.counter),
        }
    }

    /// The region of `n` blocks from `start` to `cont`, in the same loop.
    fn part(&self, start: Block, n: u32, cont: Block) -> Region {
        Region {
            start,
            n,
            cont,
            ..*self
        }
    }

    /// The region of `n` blocks from `start` to `cont`, in loop `lp`.
    fn inner(&self, start: Block, n: u32, cont: Block, lp: Loop) -> Region {
        Region {
            start,
            n,
            cont,
            depth: self.depth + 1,
            lp: Some(lp),
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Task {
    Region(Region),
    /// A loop latch: step the counter, then jump back (`exit == None`, the
    /// header tests) or test and branch back or to `exit`.
    Latch {
        latch: Block,
        counter: Counter,
        back: Block,
        exit: Option<Block>,
    },
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Seq,
    Diamond,
    Switch,
    While,
    DoWhile,
    Irreducible,
}

struct Gen<'s> {
    sk: &'s mut Sketch,
    p: Profile,
    stack: Vec<Task>,
    want_irreducible: bool,
}

/// Generates `main` as entry, one region of `blocks - 2` blocks, and exit:
/// exactly `max(blocks, 3)` blocks.
pub(super) fn generate(sk: &mut Sketch, p: Profile, blocks: u32) {
    let blocks = blocks.max(3);
    let entry = sk.block("entry");
    let body = sk.block("b");
    let exit = sk.block("exit");
    sk.begin(entry);
    sk.init_safe();
    if p.init_wild {
        sk.init_wild();
    }
    sk.end(Exit::Jump(body));
    let mut g = Gen {
        sk,
        p,
        stack: vec![Task::Region(Region {
            start: body,
            n: blocks - 2,
            cont: exit,
            depth: 0,
            lp: None,
        })],
        want_irreducible: p.irreducible > 0,
    };
    while let Some(t) = g.stack.pop() {
        match t {
            Task::Region(r) => g.region(r),
            Task::Latch {
                latch,
                counter,
                back,
                exit,
            } => g.latch(latch, counter, back, exit),
        }
    }
    g.sk.begin(exit);
    g.sk.exit_code(p.print_all);
}

impl Gen<'_> {
    fn push(&mut self, r: Region) {
        debug_assert!(r.n >= 1);
        self.stack.push(Task::Region(r))
    }

    /// `branch c, x, y` or, as often, the same test with the arms written in
    /// the other order (`c` is then tested for zero by the else arm).
    fn two_way(&mut self, cond: Operand, x: Block, y: Block) -> Exit {
        let (then_dest, else_dest) = if self.sk.rng.chance(1, 2) {
            (x, y)
        } else {
            (y, x)
        };
        Exit::Branch {
            cond,
            then_dest,
            else_dest,
        }
    }

    fn choose(&mut self, n: u32, depth: u8) -> Kind {
        let loops = depth < self.p.max_loop_depth;
        if self.want_irreducible && loops && (4..=self.p.big).contains(&n) {
            self.want_irreducible = false;
            return Kind::Irreducible;
        }
        let rng = &mut self.sk.rng;
        if n > self.p.big {
            return match rng.below(8) {
                0..=5 => Kind::Seq,
                6 => Kind::Diamond,
                _ => Kind::Switch,
            };
        }
        let p = &self.p;
        let on = |ok: bool, w: u32| if ok { w } else { 0 };
        let weights = [
            p.seq,
            p.diamond,
            on(n >= 3, p.switch),
            on(loops && n >= 4, p.while_loop),
            on(loops && n >= 3, p.do_while),
            on(loops && n >= 4, p.irreducible),
        ];
        [
            Kind::Seq,
            Kind::Diamond,
            Kind::Switch,
            Kind::While,
            Kind::DoWhile,
            Kind::Irreducible,
        ][rng.weighted(&weights)]
    }

    fn region(&mut self, r: Region) {
        if r.n == 1 {
            return self.plain(r);
        }
        match self.choose(r.n, r.depth) {
            Kind::Seq => self.seq(r),
            Kind::Diamond => self.diamond(r),
            Kind::Switch => self.switch(r),
            Kind::While => self.while_loop(r),
            Kind::DoWhile => self.do_while(r),
            Kind::Irreducible => self.irreducible(r),
        }
    }

    /// Opens `r.start` and emits its straight-line code.
    fn open(&mut self, r: &Region) {
        self.sk.begin(r.start);
        let (lo, hi) = self.p.assigns;
        self.sk.code(r.ctx(), lo, hi);
    }

    /// One block: code, then `jump cont`, or inside a loop sometimes a
    /// conditional break or continue.
    fn plain(&mut self, r: Region) {
        self.open(&r);
        let ctx = r.ctx();
        let t = match r.lp {
            Some(l) if l.exit != r.cont && self.sk.rng.chance(1, 8) => {
                let c = self.sk.cond(ctx);
                self.two_way(c, l.exit, r.cont)
            }
            Some(l) if l.latch != r.cont && self.sk.rng.chance(1, 8) => {
                let c = self.sk.cond(ctx);
                self.two_way(c, l.latch, r.cont)
            }
            _ => Exit::Jump(r.cont),
        };
        self.sk.end(t);
    }

    /// `R1; R2`, cut at a uniformly random point.
    fn seq(&mut self, r: Region) {
        let n1 = self.sk.rng.range(1, r.n - 1);
        let mid = self.sk.block("b");
        self.push(r.part(mid, r.n - n1, r.cont));
        self.push(r.part(r.start, n1, mid));
    }

    /// `start; if c { T } [else { E }]; [J]`: `1 + t + e + j` blocks.
    fn diamond(&mut self, r: Region) {
        let rest = r.n - 1;
        let has_else = rest >= 2 && self.sk.rng.chance(1, 2);
        let has_join = rest >= 2 + u32::from(has_else) && self.sk.rng.chance(2, 3);
        let mut parts = [0u32; 3];
        let k = 1 + usize::from(has_else) + usize::from(has_join);
        self.sk.rng.split(rest, &mut parts[..k]);
        self.open(&r);
        let c = self.sk.cond(r.ctx());
        let then_b = self.sk.block("then");
        let else_b = has_else.then(|| self.sk.block("else"));
        let join = if has_join {
            self.sk.block("join")
        } else {
            r.cont
        };
        let t = self.two_way(c, then_b, else_b.unwrap_or(join));
        self.sk.end(t);
        if has_join {
            self.push(r.part(join, parts[k - 1], r.cont));
        }
        if let Some(e) = else_b {
            self.push(r.part(e, parts[1], join));
        }
        self.push(r.part(then_b, parts[0], join));
    }

    /// `switch sel, J, [case0, ...]`: two to four cases, then [J].
    fn switch(&mut self, r: Region) {
        let rest = r.n - 1;
        let has_join = rest >= 3 && self.sk.rng.chance(1, 2);
        let m = self.sk.rng.range(2, 4.min(rest - u32::from(has_join)));
        let k = m as usize + usize::from(has_join);
        let mut parts = [0u32; 5];
        self.sk.rng.split(rest, &mut parts[..k]);
        self.open(&r);
        let sel = self.sk.selector(r.ctx(), m);
        let cases: Vec<Block> = (0..m).map(|_| self.sk.block("case")).collect();
        let join = if has_join {
            self.sk.block("join")
        } else {
            r.cont
        };
        self.sk.end(Exit::Switch {
            value: sel,
            default: join,
            targets: cases.clone(),
        });
        if has_join {
            self.push(r.part(join, parts[k - 1], r.cont));
        }
        for (i, &c) in cases.iter().enumerate().rev() {
            self.push(r.part(c, parts[i], join));
        }
    }

    /// The blocks after a loop: a new region of `x` blocks, or `cont`.
    fn after(&mut self, r: &Region, x: u32) -> Block {
        if x > 0 {
            let b = self.sk.block("after");
            self.push(r.part(b, x, r.cont));
            b
        } else {
            r.cont
        }
    }

    /// Splits `n` blocks into a body (at least one) and the code after the
    /// loop (possibly none).
    fn body_and_after(&mut self, n: u32) -> (u32, u32) {
        if n >= 2 && self.sk.rng.chance(2, 3) {
            let mut parts = [0u32; 2];
            self.sk.rng.split(n, &mut parts);
            (parts[0], parts[1])
        } else {
            (n, 0)
        }
    }

    /// `start: k = ..; head: if k > 0 { body; latch: k -= 1; jump head }`:
    /// `3 + body + after` blocks.
    fn while_loop(&mut self, r: Region) {
        let (nb, x) = self.body_and_after(r.n - 3);
        self.open(&r);
        let k = self.sk.counter_init(MAX_TRIPS);
        let head = self.sk.block("head");
        self.sk.end(Exit::Jump(head));
        let body = self.sk.block("body");
        let latch = self.sk.block("latch");
        // Pushed first, popped last: the code after the loop.
        let after = self.after(&r, x);
        let inside = Ctx {
            counter: Some(k.var),
        };
        self.sk.begin(head);
        self.sk.code(inside, 0, 1);
        let c = self.sk.counter_test(k);
        self.sk.end(Exit::Branch {
            cond: c,
            then_dest: body,
            else_dest: after,
        });
        self.stack.push(Task::Latch {
            latch,
            counter: k,
            back: head,
            exit: None,
        });
        let lp = Loop {
            exit: after,
            latch,
            counter: k.var,
        };
        self.push(r.inner(body, nb, latch, lp));
    }

    /// `start: k = ..; body; latch: k -= 1; if k > 0 jump body`:
    /// `2 + body + after` blocks. The body is the loop header.
    fn do_while(&mut self, r: Region) {
        let (nb, x) = self.body_and_after(r.n - 2);
        self.open(&r);
        let k = self.sk.counter_init(MAX_TRIPS);
        let body = self.sk.block("body");
        self.sk.end(Exit::Jump(body));
        let latch = self.sk.block("latch");
        let after = self.after(&r, x);
        self.stack.push(Task::Latch {
            latch,
            counter: k,
            back: body,
            exit: Some(after),
        });
        let lp = Loop {
            exit: after,
            latch,
            counter: k.var,
        };
        self.push(r.inner(body, nb, latch, lp));
    }

    /// `pre: k = ..; branch c, C0, Ce`, the cycle `C0 -> .. -> C(m-1) ->
    /// latch -> C0`, and the latch's exit: `2 + sum(Ci) + after` blocks.
    /// Every trip round the cycle, whichever block it entered by, passes the
    /// latch, which steps and tests the counter.
    fn irreducible(&mut self, r: Region) {
        let rest = r.n - 2;
        let has_after = rest >= 3 && self.sk.rng.chance(2, 3);
        let m = self.sk.rng.range(2, 4.min(rest - u32::from(has_after)));
        let k = m as usize + usize::from(has_after);
        let mut parts = [0u32; 5];
        self.sk.rng.split(rest, &mut parts[..k]);
        let x = if has_after { parts[k - 1] } else { 0 };
        self.open(&r);
        let counter = self.sk.counter_init(MAX_TRIPS);
        let cycle: Vec<Block> = (0..m).map(|_| self.sk.block("irr")).collect();
        let latch = self.sk.block("latch");
        let t = if m >= 3 && self.sk.rng.chance(1, 3) {
            // Three entries: a switch to C0 (default), Ce1 and Ce2.
            let e1 = self.sk.rng.range(1, m - 1);
            let e2 = 1 + (e1 - 1 + self.sk.rng.range(1, m - 2)) % (m - 1);
            let sel = self.sk.selector(r.ctx(), 2);
            Exit::Switch {
                value: sel,
                default: cycle[0],
                targets: vec![cycle[e1 as usize], cycle[e2 as usize]],
            }
        } else {
            let e = self.sk.rng.range(1, m - 1);
            let c = self.sk.cond(r.ctx());
            self.two_way(c, cycle[0], cycle[e as usize])
        };
        self.sk.end(t);
        let after = self.after(&r, x);
        self.stack.push(Task::Latch {
            latch,
            counter,
            back: cycle[0],
            exit: Some(after),
        });
        let lp = Loop {
            exit: after,
            latch,
            counter: counter.var,
        };
        for j in (0..m as usize).rev() {
            let next = cycle.get(j + 1).copied().unwrap_or(latch);
            self.push(r.inner(cycle[j], parts[j], next, lp));
        }
    }

    /// A latch: a little code, the counter step, and the back edge.
    fn latch(&mut self, latch: Block, k: Counter, back: Block, exit: Option<Block>) {
        self.sk.begin(latch);
        self.sk.code(
            Ctx {
                counter: Some(k.var),
            },
            0,
            1,
        );
        self.sk.counter_step(k);
        let t = match exit {
            None => Exit::Jump(back),
            Some(x) => {
                let c = self.sk.counter_test(k);
                Exit::Branch {
                    cond: c,
                    then_dest: back,
                    else_dest: x,
                }
            }
        };
        self.sk.end(t);
    }
}
