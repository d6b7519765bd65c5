//! Which variables a script reads as copies, found in its syntax tree
//! once at compile time, so that the handler's watch (script/watch.rs)
//! can charge such a read for the values it clones.
//!
//! Why: the interpreter counts `let b = a` as one operation whatever
//! `a` holds, but copying a 9,000-item array clones 9,000 values (about
//! 0.3 ms natively, hundreds of plain operations), so a loop of copies
//! ran 0.35 s natively (a 0.4 s task on the page) within the operation
//! budget. The variable hook (`on_var`) is called the same way for a
//! read that copies (`let b = a`, `f(a)`, `ctx.send(p, a)`, `return a`,
//! `for x in a`, `a == b`) and one that does not (`a[i]`, `a.len()`,
//! `a.push(x)`, `a = x`): only the syntax tells them apart, and the hook
//! gets the variable's name, not where it is read. So a name read as a
//! copy anywhere in the script has all its reads charged as copies, and
//! a name only ever indexed, called a method on or assigned keeps the
//! cheap charge (a loop over a large array by index stays affordable).

use rhai::AST;
use rhai::{ASTNode, Expr, Stmt};
use std::collections::BTreeSet;

/// The names of the variables `ast` reads as a copy somewhere (its
/// handlers and functions alike).
pub fn copied_names(ast: &AST) -> BTreeSet<String> {
    let script_fns: BTreeSet<&str> = ast.iter_functions().map(|f| f.name).collect();
    let mut copied = BTreeSet::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if let [.., parent, ASTNode::Expr(var @ Expr::Variable(v, ..))] = path
            && !by_reference(parent, var, &script_fns)
        {
            copied.insert(v.1.to_string());
        }
        true
    });
    copied
}

/// Whether the variable `var`, a child of `parent`, is read in place
/// rather than cloned: the start of an index or property chain (`a[i]`,
/// `a.len()`, `a.x = 1`), the target of an assignment, or the first
/// argument of a call to a built-in function (`len(a)`, which the
/// interpreter passes by reference; a script function gets a copy, and
/// an operator such as `==` copies both sides).
fn by_reference(parent: &ASTNode, var: &Expr, script_fns: &BTreeSet<&str>) -> bool {
    let first_of = |args: &[Expr], name: &str, operator: bool| {
        !operator
            && !script_fns.contains(name)
            && args.first().is_some_and(|a| std::ptr::eq(a, var))
    };
    match parent {
        ASTNode::Expr(Expr::Index(x, ..) | Expr::Dot(x, ..)) => std::ptr::eq(&x.lhs, var),
        ASTNode::Stmt(Stmt::Assignment(x)) => std::ptr::eq(&x.1.lhs, var),
        ASTNode::Expr(Expr::FnCall(call, ..)) | ASTNode::Stmt(Stmt::FnCall(call, ..)) => {
            first_of(&call.args, &call.name, call.op_token.is_some())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copied(source: &str) -> Vec<String> {
        let ast = rhai::Engine::new_raw().compile(source).expect("compiles");
        copied_names(&ast).into_iter().collect()
    }

    #[test]
    fn copies_are_told_from_reads_in_place() {
        let source = "fn f(x) { x }
            fn on_start(ctx) {
                let a = []; let b = []; let c = []; let d = []; let e = []; let g = [];
                let s = 0;
                for i in 0..a.len() { s += a[i]; }
                b.push(1); b[0] = 2; len(b);
                c = [1];
                let h = d;
                ctx.send(1, e);
                f(g);
                for x in s { }
            }";
        assert_eq!(copied(source), ["d", "e", "g", "i", "s", "x"]);
    }

    #[test]
    fn an_operator_copies_both_sides() {
        assert_eq!(
            copied("fn on_start(ctx) { let a = []; let b = []; if a == b { } }"),
            ["a", "b"]
        );
    }
}
