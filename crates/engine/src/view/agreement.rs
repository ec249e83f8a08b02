//! How far two renderings of a page agree line by line: the longest common subsequence of their lines.
//! It measures the view against another stripper's text of the same page (the corpora's `.txt`).

use std::collections::HashMap;

/// Lines `a` and `b` have in common, in order (their longest common subsequence). Lines are compared
/// whole. Time O(|a|·|b|) over the lines left once the common head and tail are taken off, memory
/// O(|b|).
pub fn common_lines<'a>(a: &[&'a str], b: &[&'a str]) -> usize {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[head..], &b[head..]);
    let tail = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[..a.len() - tail], &b[..b.len() - tail]);
    // lines as numbers: comparing numbers in the inner loop, not strings
    let mut ids: HashMap<&'a str, u32> = HashMap::new();
    let mut id = |s: &'a str| {
        let n = ids.len() as u32;
        *ids.entry(s).or_insert(n)
    };
    let a: Vec<u32> = a.iter().map(|s| id(s)).collect();
    let b: Vec<u32> = b.iter().map(|s| id(s)).collect();
    let mut row = vec![0u32; b.len() + 1];
    for &x in &a {
        let mut diagonal = 0;
        for (j, &y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diagonal + 1 } else { up.max(row[j]) };
            diagonal = up;
        }
    }
    head + tail + row[b.len()] as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_lines_is_the_longest_common_subsequence() {
        assert_eq!(common_lines(&["a", "b", "c", "d"], &["a", "c", "d"]), 3);
        assert_eq!(common_lines(&["x", "a", "y", "b"], &["a", "b", "z"]), 2);
        assert_eq!(common_lines(&[], &["a"]), 0);
        assert_eq!(common_lines(&["a", "b"], &["b", "a"]), 1);
    }
}
