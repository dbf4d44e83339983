//! Whether a set of players can all be paired: a perfect matching in the graph of allowed
//! pairings. Pairing takes its choices greedily, in the Dutch system's order of preference,
//! and keeps only a choice after which the rest can still be paired; this makes the greedy
//! order complete (it never paints itself into a corner while a legal pairing exists).
//!
//! Two tests: Dirac's theorem answers at once for the large, dense fields of the early
//! rounds (every player allowed with at least half of the others: the graph has a
//! Hamiltonian cycle, so an even count pairs); otherwise Edmonds' blossom algorithm looks
//! for a maximum matching.

use std::collections::VecDeque;

const NONE: usize = usize::MAX;

/// Whether the `count` vertices with neighbours `adjacent` have a perfect matching.
pub(crate) fn perfect(adjacent: &[Vec<usize>]) -> bool {
    let count = adjacent.len();
    if count % 2 == 1 {
        return false;
    }
    let mut blossom = Blossom::new(adjacent);
    for (v, neighbours) in adjacent.iter().enumerate() {
        if blossom.mate[v] == NONE {
            if let Some(&u) = neighbours.iter().find(|&&u| blossom.mate[u] == NONE) {
                blossom.mate[v] = u;
                blossom.mate[u] = v;
            }
        }
    }
    // A free vertex without an augmenting path stays free in some maximum matching.
    (0..count).all(|v| blossom.mate[v] != NONE || blossom.augment(v))
}

/// Whether every vertex has at least half of the others as neighbours (Dirac).
pub(crate) fn dirac(count: usize, degrees: impl Iterator<Item = usize>) -> bool {
    count >= 3 && degrees.into_iter().all(|degree| 2 * degree >= count)
}

/// Edmonds' algorithm: a matching grown by augmenting paths found by breadth-first search,
/// contracting odd cycles (blossoms) into their base.
struct Blossom<'a> {
    adjacent: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    in_blossom: Vec<bool>,
    queue: VecDeque<usize>,
}

impl<'a> Blossom<'a> {
    fn new(adjacent: &'a [Vec<usize>]) -> Self {
        let count = adjacent.len();
        Blossom {
            adjacent,
            mate: vec![NONE; count],
            parent: vec![NONE; count],
            base: (0..count).collect(),
            used: vec![false; count],
            in_blossom: vec![false; count],
            queue: VecDeque::new(),
        }
    }

    /// Looks for an augmenting path from the free vertex `root` and flips it if found.
    fn augment(&mut self, root: usize) -> bool {
        let count = self.adjacent.len();
        self.used.iter_mut().for_each(|used| *used = false);
        self.parent.iter_mut().for_each(|parent| *parent = NONE);
        for (v, base) in self.base.iter_mut().enumerate() {
            *base = v;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for index in 0..self.adjacent[v].len() {
                let to = self.adjacent[v][index];
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    self.contract(v, to, count);
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        self.flip(to);
                        return true;
                    }
                    self.used[self.mate[to]] = true;
                    self.queue.push_back(self.mate[to]);
                }
            }
        }
        false
    }

    /// Flips the augmenting path ending at the free vertex `end`.
    fn flip(&mut self, end: usize) {
        let mut v = end;
        while v != NONE {
            let previous = self.parent[v];
            let next = self.mate[previous];
            self.mate[v] = previous;
            self.mate[previous] = v;
            v = next;
        }
    }

    /// Contracts the blossom closed by the edge `v`–`to` into its base.
    fn contract(&mut self, v: usize, to: usize, count: usize) {
        let base = self.common_base(v, to);
        self.in_blossom.iter_mut().for_each(|mark| *mark = false);
        self.mark_path(v, base, to);
        self.mark_path(to, base, v);
        for i in 0..count {
            if self.in_blossom[self.base[i]] {
                self.base[i] = base;
                if !self.used[i] {
                    self.used[i] = true;
                    self.queue.push_back(i);
                }
            }
        }
    }

    /// The base of the blossom where the alternating paths from `a` and `b` meet.
    fn common_base(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.adjacent.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Marks the blossom's vertices on the path from `v` down to `base`, pointing the
    /// parents back through `child` so that paths can run round the blossom.
    fn mark_path(&mut self, mut v: usize, base: usize, mut child: usize) {
        while self.base[v] != base {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{dirac, perfect};

    fn graph(count: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut adjacent = vec![Vec::new(); count];
        for &(a, b) in edges {
            adjacent[a].push(b);
            adjacent[b].push(a);
        }
        adjacent
    }

    /// Whether the vertices of `mask` pair up, trying every partner of the lowest.
    fn brute(adjacent: &[Vec<usize>], mask: u32) -> bool {
        if mask == 0 {
            return true;
        }
        let first = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << first);
        adjacent[first].iter().any(|&other| rest & (1 << other) != 0 && brute(adjacent, rest & !(1 << other)))
    }

    #[test]
    fn a_blossom_is_contracted_to_find_the_augmenting_path() {
        // A triangle 0-1-2 with tails 0-3 and 2-4 and 1-5: the greedy start matches 0-1
        // and 2-4 and must reroute round the odd cycle to reach 3 and 5.
        let adjacent = graph(6, &[(0, 1), (1, 2), (2, 0), (0, 3), (2, 4), (1, 5)]);
        assert!(perfect(&adjacent));
        // Two triangles joined by nothing: odd components never pair.
        assert!(!perfect(&graph(6, &[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)])));
    }

    #[test]
    fn dirac_needs_half_the_others() {
        assert!(dirac(4, [2, 2, 2, 2].into_iter()));
        assert!(!dirac(4, [2, 1, 2, 2].into_iter()));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        /// Edmonds agrees with brute force on random graphs of up to 12 vertices.
        #[test]
        fn perfect_matching_agrees_with_brute_force(count in 0usize..=12, density in 0.1f64..0.9, seed in any::<u64>()) {
            let mut state = seed | 1;
            let mut edges = Vec::new();
            for a in 0..count {
                for b in a + 1..count {
                    // A small xorshift: the graph is a function of the seed.
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    if (state % 1000) as f64 / 1000.0 < density {
                        edges.push((a, b));
                    }
                }
            }
            let adjacent = graph(count, &edges);
            let mask = if count == 0 { 0 } else { (1u32 << count) - 1 };
            prop_assert_eq!(perfect(&adjacent), count % 2 == 0 && brute(&adjacent, mask));
        }
    }
}
