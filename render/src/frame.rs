//! The indexed picture being drawn: one palette index per pixel, reused between requests
//! so that a render allocates nothing once warm.

/// A picture of palette indices, row by row.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Palette indices, row by row from the top, `width * height` of them.
    pub pixels: Vec<u8>,
}

impl Frame {
    /// Makes the frame `width` x `height`, every pixel `fill`, keeping the allocation.
    pub fn reset(&mut self, width: usize, height: usize, fill: u8) {
        self.width = width;
        self.height = height;
        self.pixels.clear();
        self.pixels.resize(width * height, fill);
    }

    /// Fills a rectangle, clipped to the frame.
    pub fn fill(&mut self, x: usize, y: usize, width: usize, height: usize, index: u8) {
        let (x_end, y_end) = ((x + width).min(self.width), (y + height).min(self.height));
        if x >= x_end {
            return;
        }
        for row in y.min(y_end)..y_end {
            self.pixels[row * self.width + x..row * self.width + x_end].fill(index);
        }
    }

    /// Copies `source` into row `y` from column `x`, clipped to the frame.
    pub fn copy_row(&mut self, x: usize, y: usize, source: &[u8]) {
        if y >= self.height || x >= self.width {
            return;
        }
        let length = source.len().min(self.width - x);
        let start = y * self.width + x;
        self.pixels[start..start + length].copy_from_slice(&source[..length]);
    }

    /// Sets one pixel, if it is inside the frame.
    pub fn set(&mut self, x: usize, y: usize, index: u8) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = index;
        }
    }

    /// The palette index at a pixel inside the frame (panics outside it: callers draw within bounds).
    #[must_use]
    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.pixels[y * self.width + x]
    }
}
