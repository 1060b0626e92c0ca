package protocols.core.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A visible link from Gatling's index.html to rpc-report.html, added once Gatling has written its
 * page: Gatling writes its report after the simulation (and the record) ended, so this runs at the very
 * end of the run (see {@link RunEnd}). Gatling's page otherwise stays as Gatling wrote it.
 */
public final class GatlingLink {

  static final String MARK = "id=\"gatling-rpc-link\"";
  private static final Pattern BODY = Pattern.compile("<body[^>]*>");

  private GatlingLink() {}

  /** Adds the link; false when there is no complete index.html (Gatling wrote no report) or it has one. */
  public static boolean add(Path runFolder) throws IOException {
    Path index = runFolder.resolve("index.html");
    if (!Files.exists(index)) {
      return false;
    }
    String html = Files.readString(index, StandardCharsets.UTF_8);
    Matcher body = BODY.matcher(html);
    if (html.contains(MARK) || !html.trim().endsWith("</html>") || !body.find()) {
      return false;
    }
    String link =
        "<div " + MARK + " style=\"position:fixed;bottom:0;right:0;z-index:10000;background:#fff3cd;border:1px solid #e0b000;"
            + "padding:6px 10px;font:14px sans-serif\">Exact figures, microsecond record: <a href=\"" + RunEnd.PAGE
            + "\" style=\"font-weight:bold\">" + RunEnd.PAGE + "</a> (this page's percentiles are estimates)</div>";
    Files.writeString(index, html.substring(0, body.end()) + link + html.substring(body.end()), StandardCharsets.UTF_8);
    return true;
  }
}
