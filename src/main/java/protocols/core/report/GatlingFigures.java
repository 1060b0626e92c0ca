package protocols.core.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Gatling's own report says, read from the statistics table of its index.html (Gatling 3.15 writes
 * no stats.json any more; its table is plain HTML with one column class per figure): per request name
 * and for {@link RunData#ALL}, figures in whole milliseconds by name: count, ok, ko, throughput, min,
 * max, mean and one "pNN" per percentile column (p50, p75, p95, p99 by default).
 */
public final class GatlingFigures {

  private static final Pattern ROW = Pattern.compile("<tr id=\"([^\"]*)\"[^>]*>(.*?)</tr>", Pattern.DOTALL);
  private static final Pattern NAME = Pattern.compile("class=\"ellipsed-name\">(.*?)</span>", Pattern.DOTALL);
  private static final Pattern CELL = Pattern.compile("<td class=\"value [^\"]*col-(\\d+)\">([^<]*)</td>");
  private static final Pattern PCT_HEADER = Pattern.compile("<th id=\"col-(\\d+)\"[^>]*><span>([\\d.]+)\\w* pct</span>");

  private GatlingFigures() {}

  /** The figures of Gatling's report in {@code runFolder}; empty when Gatling wrote no report. */
  public static Map<String, Map<String, Double>> read(Path runFolder) throws IOException {
    Path index = runFolder.resolve("index.html");
    if (!Files.exists(index)) {
      return Map.of();
    }
    return parse(Files.readString(index, StandardCharsets.UTF_8));
  }

  static Map<String, Map<String, Double>> parse(String html) {
    Map<Integer, String> columns = new LinkedHashMap<>();
    columns.put(2, "count");
    columns.put(3, "ok");
    columns.put(4, "ko");
    columns.put(6, "throughput");
    columns.put(7, "min");
    columns.put(12, "max");
    columns.put(13, "mean");
    Matcher header = PCT_HEADER.matcher(html);
    while (header.find()) {
      columns.put(Integer.parseInt(header.group(1)), "p" + header.group(2).replace(".", ""));
    }
    Map<String, Map<String, Double>> figures = new LinkedHashMap<>();
    Matcher row = ROW.matcher(html);
    boolean first = true;
    while (row.find()) {
      Matcher name = NAME.matcher(row.group(2));
      if (!name.find()) {
        continue;
      }
      Map<String, Double> values = new LinkedHashMap<>();
      Matcher cell = CELL.matcher(row.group(2));
      while (cell.find()) {
        String column = columns.get(Integer.parseInt(cell.group(1)));
        String text = cell.group(2).trim();
        if (column != null && !text.equals("-")) {
          try {
            values.put(column, Double.parseDouble(text));
          } catch (NumberFormatException e) {
            // not a figure: left out, shown as missing
          }
        }
      }
      // the first row is Gatling's "All Requests"
      figures.put(first ? RunData.ALL : unescape(name.group(1).trim()), values);
      first = false;
    }
    return figures;
  }

  private static String unescape(String html) {
    return html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&#x27;", "'").replace("&amp;", "&");
  }
}
