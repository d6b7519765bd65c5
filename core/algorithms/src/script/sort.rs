//! `array.sort(comparer)` for scripts, in place of Rhai's own: Rhai's
//! ignores the comparer's errors (it orders the pair by type and goes
//! on), so a comparer stopped by the operation budget was called again
//! for every remaining pair, and a sort in a loop kept a handler running
//! for minutes past its budget (tests/hostile/cli/sort-loop.rhai). This
//! one stops at the comparer's first error and returns it. It is a
//! merge sort of its own, stable as Rhai's, because the standard
//! library's sorts may panic when a comparer is not a total order, which
//! a script's need not be.

use rhai::{Array, Dynamic, EvalAltResult, FnPtr, NativeCallContext};

/// Registers `sort(array, comparer)`: found before the array package's.
pub fn register(engine: &mut rhai::Engine) {
    engine.register_fn(
        "sort",
        |ctx: NativeCallContext,
         array: &mut Array,
         comparer: FnPtr|
         -> Result<(), Box<EvalAltResult>> {
            let items = std::mem::take(array);
            let sorted = merge_sort(items, &mut |x, y| {
                let v = comparer.call_raw(&ctx, None, [x.clone(), y.clone()])?;
                // As Rhai's: a number (> 0: x after y) or a bool (true: x
                // before y); anything else leaves the pair in order.
                Ok(v.as_int()
                    .map(|n| n > 0)
                    .or_else(|_| v.as_bool().map(|before| !before))
                    .unwrap_or(false))
            });
            match sorted {
                Ok(items) => {
                    *array = items;
                    Ok(())
                }
                Err((items, e)) => {
                    *array = items;
                    Err(e)
                }
            }
        },
    );
}

/// A stable merge sort by `after(x, y)` (whether `x` goes after `y`);
/// on the comparer's first error, the items (in some order) and it.
#[allow(clippy::type_complexity)]
fn merge_sort<E>(
    items: Vec<Dynamic>,
    after: &mut impl FnMut(&Dynamic, &Dynamic) -> Result<bool, E>,
) -> Result<Vec<Dynamic>, (Vec<Dynamic>, E)> {
    let mut runs: Vec<Vec<Dynamic>> = items.into_iter().map(|x| vec![x]).collect();
    while runs.len() > 1 {
        let mut merged = Vec::with_capacity(runs.len().div_ceil(2));
        let mut pairs = runs.into_iter();
        while let Some(left) = pairs.next() {
            let Some(right) = pairs.next() else {
                merged.push(left);
                break;
            };
            let mut out = Vec::with_capacity(left.len() + right.len());
            let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
            while let (Some(x), Some(y)) = (l.peek(), r.peek()) {
                match after(x, y) {
                    Ok(true) => out.extend(r.next()),
                    Ok(false) => out.extend(l.next()),
                    Err(e) => {
                        out.extend(l);
                        out.extend(r);
                        out.extend(merged.into_iter().flatten());
                        out.extend(pairs.flatten());
                        return Err((out, e));
                    }
                }
            }
            out.extend(l);
            out.extend(r);
            merged.push(out);
        }
        runs = merged;
    }
    Ok(runs.pop().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Vec<Dynamic> {
        v.iter().map(|&n| Dynamic::from(n)).collect()
    }

    fn back(v: Vec<Dynamic>) -> Vec<i64> {
        v.into_iter().map(|d| d.as_int().unwrap()).collect()
    }

    #[test]
    fn sorts_stably_and_stops_at_the_first_error() {
        let mut by =
            |x: &Dynamic, y: &Dynamic| Ok::<_, ()>(x.as_int().unwrap() > y.as_int().unwrap());
        let sorted = merge_sort(ints(&[5, 3, 9, 1, 3, 0, 7]), &mut by).unwrap();
        assert_eq!(back(sorted), vec![0, 1, 3, 3, 5, 7, 9]);
        assert!(merge_sort(Vec::new(), &mut by).unwrap().is_empty());
        let mut calls = 0;
        let (items, e) = merge_sort(ints(&[4, 3, 2, 1, 0, 5, 6, 7]), &mut |_, _| {
            calls += 1;
            if calls == 3 { Err("stop") } else { Ok(true) }
        })
        .unwrap_err();
        assert_eq!((calls, e), (3, "stop"));
        let mut kept = back(items);
        kept.sort_unstable();
        assert_eq!(kept, (0..8).collect::<Vec<_>>(), "no item lost");
        // A comparer that is no order at all: no panic, every item kept.
        let mut flip = false;
        let out = merge_sort(ints(&(0..100).collect::<Vec<_>>()), &mut |_, _| {
            flip = !flip;
            Ok::<_, ()>(flip)
        })
        .unwrap();
        assert_eq!(out.len(), 100);
    }
}
