package io.kvtier.host.replay;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * One instance's replay as a PNG: above, the hit rate over the trace's time beside the exact-LRU
 * and unbounded oracles' (per slice of the requests, so that a cache warming up or falling behind
 * shows); below, the distribution of the prefix fetch times (lookup + load per request).
 */
final class ReplayChart {
    private static final int WIDTH = 960;
    private static final int HEIGHT = 720;
    private static final int LEFT = 80;
    private static final int RIGHT = 30;
    private static final int PANEL = 270;
    private static final int TOP_Y = 50;
    private static final int BOTTOM_Y = 410;
    /** Slices of the requests that the hit rate is drawn over: fewer when the trace is shorter. */
    private static final int SLICES = 60;
    private static final Color REPLAY = new Color(0x1f77b4);
    private static final Color LRU = new Color(0xff7f0e);
    private static final Color UNBOUNDED = Color.GRAY;

    private record Point(double x, double y) {}

    private ReplayChart() {}

    static void write(ReplayReport report, Path file) throws IOException {
        // No display is needed nor wanted: the chart is drawn in memory.
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.drawString(String.format(Locale.ROOT, "kvtier replay: %s (%s), %d requests, capacity %s",
                    report.name, report.type, report.requests.size(),
                    report.capacityBlocks == 0 ? "unknown (no exact LRU)" : report.capacityBlocks + " blocks"), LEFT, 25);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            hitRates(g, report);
            prefixFetch(g, report);
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", file.toFile());
    }

    private static void hitRates(Graphics2D g, ReplayReport report) {
        List<List<Point>> lines = List.of(slices(report, report.hits), slices(report, report.lruHits),
                slices(report, report.maxHits));
        double maxX = Math.max(1e-3, lines.get(0).get(lines.get(0).size() - 1).x());
        double maxY = Math.min(1, Math.ceil(lines.stream().flatMap(List::stream).mapToDouble(Point::y).max()
                .orElse(0) * 10 + 1) / 10);
        axes(g, TOP_Y, "trace time (s)", "prefix hit rate", 0, maxX, String.format(Locale.ROOT, "%.0f%%", 100 * maxY));
        Color[] colors = {REPLAY, LRU, UNBOUNDED};
        String[] names = {"replay", "exact LRU", "unbounded"};
        for (int i = 0; i < lines.size(); i++) {
            if (i == 1 && report.capacityBlocks == 0) {
                continue; // no exact LRU without a capacity: its line would be the unbounded one, mislabelled
            }
            List<Point> scaled = lines.get(i).stream().map(p -> new Point(p.x() / maxX, p.y() / maxY)).toList();
            plot(g, TOP_Y, scaled, colors[i], i == 2);
            legend(g, i, names[i], colors[i]);
        }
    }

    /** The hit rate of each slice of the requests, at the trace time of its last request. */
    private static List<Point> slices(ReplayReport report, int[] hits) {
        List<Trace.Request> requests = report.requests;
        int slices = Math.min(SLICES, requests.size());
        long first = requests.get(0).timestampMs();
        List<Point> points = new ArrayList<>();
        for (int s = 0; s < slices; s++) {
            int from = (int) ((long) s * requests.size() / slices);
            int to = (int) ((long) (s + 1) * requests.size() / slices);
            long hit = 0;
            long blocks = 0;
            for (int i = from; i < to; i++) {
                hit += hits[i];
                blocks += requests.get(i).blocks().length;
            }
            points.add(new Point((requests.get(to - 1).timestampMs() - first) / 1000.0, hit / (double) blocks));
        }
        return points;
    }

    /** The distribution function on a logarithmic time axis, from the fastest fetch to the slowest. */
    private static void prefixFetch(Graphics2D g, ReplayReport report) {
        double fastest = Math.max(1e-4, report.prefixFetch.percentileMillis(0));
        double slowest = Math.max(fastest * 10, report.prefixFetch.percentileMillis(100));
        double span = Math.log10(slowest / fastest);
        axes(g, BOTTOM_Y, String.format(Locale.ROOT, "prefix fetch time, log scale: %.3g ms to %.3g ms",
                fastest, slowest), "fraction of requests", 0, 0, "1");
        List<Point> points = new ArrayList<>();
        for (double p = 0; p <= 100; p += p < 99 ? 0.5 : 0.1) {
            double ms = Math.max(fastest, report.prefixFetch.percentileMillis(p));
            points.add(new Point(Math.log10(ms / fastest) / span, p / 100));
        }
        plot(g, BOTTOM_Y, points, REPLAY, false);
        g.setColor(Color.BLACK);
        double[] marks = {50, 99, 99.9};
        for (double p : marks) {
            double ms = report.prefixFetch.percentileMillis(p);
            int x = LEFT + (int) (plotWidth() * Math.log10(Math.max(fastest, ms) / fastest) / span);
            int y = BOTTOM_Y + PANEL - (int) (PANEL * p / 100);
            g.fillOval(x - 3, y - 3, 6, 6);
            String label = String.format(Locale.ROOT, "p%s %.3f ms", p == 99.9 ? "99.9" : String.valueOf((int) p), ms);
            int width = g.getFontMetrics().stringWidth(label);
            // Labels near the right edge go to the left of their point, so that none is cut off.
            g.drawString(label, x + 6 + width > WIDTH - 4 ? x - 6 - width : x + 6, y + (p == 99.9 ? -6 : 16));
        }
    }

    private static void axes(Graphics2D g, int top, String xLabel, String yLabel, double minX, double maxX,
                             String maxYLabel) {
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1));
        g.drawRect(LEFT, top, plotWidth(), PANEL);
        g.drawString(xLabel, LEFT + plotWidth() / 2 - g.getFontMetrics().stringWidth(xLabel) / 2, top + PANEL + 32);
        g.drawString(yLabel, 8, top - 8);
        g.drawString("0", LEFT - 14, top + PANEL + 4);
        g.drawString(maxYLabel, LEFT - 8 - g.getFontMetrics().stringWidth(maxYLabel), top + 10);
        if (maxX > minX) {
            g.drawString(String.format(Locale.ROOT, "%.0f", minX), LEFT, top + PANEL + 16);
            String end = String.format(Locale.ROOT, "%.0f", maxX);
            g.drawString(end, LEFT + plotWidth() - g.getFontMetrics().stringWidth(end), top + PANEL + 16);
        }
    }

    /** Points in [0, 1] x [0, 1] of the panel at {@code top}. */
    private static void plot(Graphics2D g, int top, List<Point> points, Color color, boolean dashed) {
        Path2D.Double path = new Path2D.Double();
        for (int i = 0; i < points.size(); i++) {
            double x = LEFT + plotWidth() * points.get(i).x();
            double y = top + PANEL - PANEL * Math.min(1, points.get(i).y());
            if (i == 0) {
                path.moveTo(x, y);
            } else {
                path.lineTo(x, y);
            }
        }
        g.setColor(color);
        g.setStroke(dashed ? new BasicStroke(2, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1, new float[] {6, 4}, 0)
                : new BasicStroke(2));
        g.draw(path);
    }

    private static void legend(Graphics2D g, int row, String name, Color color) {
        int x = LEFT + plotWidth() - 120;
        int y = TOP_Y + 18 + row * 16;
        g.setColor(color);
        g.fillRect(x, y - 9, 18, 4);
        g.setColor(Color.BLACK);
        g.drawString(name, x + 24, y - 3);
    }

    private static int plotWidth() {
        return WIDTH - LEFT - RIGHT;
    }
}
