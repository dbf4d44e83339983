//! Go's 3x3 shapes that the heavy playouts answer a drop with, as a table of every 3x3
//! neighbourhood code, built once.

use super::geometry::RING;

/// Go's 3x3 shapes that playouts answer a drop with (the center is the drop; rows from
/// the top): `X` one colour, `O` the other, `.` empty, `x` not `X`, `o` not `O`, `#`
/// off the board, `?` anything. After the patterns of Gelly, Wang, Munos and Teytaud,
/// "Modification of UCT with patterns in Monte-Carlo Go" (2006).
const SHAPES: [&str; 14] = [
    // Hane: enclosing, non-cutting, magari, thin.
    "XOX...???",
    "XO....?.?",
    "XO?X..x.?",
    "XOO...?.?",
    // A diagonal attachment (katatsuke).
    ".O.X.....",
    // Cuts: unprotected, peeped, and the cut between two.
    "XO?O.o?o?",
    "XO?O.X???",
    "?X?O.Oooo",
    // On the edge: chase, block a side cut, block a side connection, sagari, cut.
    "X.?O.?###",
    "OX?X.O###",
    "?X?x.O###",
    "?XOx.x###",
    "?OXX.O###",
    // A knight's-move cut.
    "OX?o.O???",
];

/// Whether each 3x3 neighbourhood code (two bits per [`RING`] square: 0 empty, 1 the
/// side to move, 2 the other side, 3 off the board) matches one of [`SHAPES`] in one of
/// its 8 orientations, with either colour as `X`. Built once.
pub(super) fn patterns() -> &'static [bool] {
    static TABLE: std::sync::OnceLock<Vec<bool>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![false; 1 << 16];
        for shape in SHAPES {
            let grid: Vec<char> = shape.chars().collect();
            for swap in [false, true] {
                for orientation in 0..8 {
                    // The allowed values of each ring square under this orientation.
                    let mut allowed = [[false; 4]; 8];
                    for (k, &(dx, dy)) in RING.iter().enumerate() {
                        let (mut x, mut y) = if orientation & 1 == 1 { (dy, dx) } else { (dx, dy) };
                        if orientation & 2 == 2 {
                            x = -x;
                        }
                        if orientation & 4 == 4 {
                            y = -y;
                        }
                        let c = grid[((1 - y) * 3 + (x + 1)) as usize];
                        let c = match (swap, c) {
                            (true, 'X') => 'O',
                            (true, 'O') => 'X',
                            (true, 'x') => 'o',
                            (true, 'o') => 'x',
                            (_, c) => c,
                        };
                        allowed[k] = match c {
                            '.' => [true, false, false, false],
                            'X' => [false, true, false, false],
                            'O' => [false, false, true, false],
                            'x' => [true, false, true, false],
                            'o' => [true, true, false, false],
                            '#' => [false, false, false, true],
                            _ => [true; 4],
                        };
                    }
                    for (code, entry) in table.iter_mut().enumerate() {
                        if (0..8).all(|k| allowed[k][(code >> (2 * k)) & 3]) {
                            *entry = true;
                        }
                    }
                }
            }
        }
        table
    })
}
