import java.awt.Point;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.swing.SwingUtilities;

import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.Chatter;
import VASSAL.build.module.Map;
import VASSAL.build.module.PlayerRoster;
import VASSAL.build.module.map.MovementReporter;
import VASSAL.build.module.map.SetupStack;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.module.map.boardPicker.board.MapGrid;
import VASSAL.build.module.map.boardPicker.board.Region;
import VASSAL.build.module.map.boardPicker.board.RegionGrid;
import VASSAL.build.widget.PieceSlot;
import VASSAL.command.Command;
import VASSAL.counters.Decorator;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Obscurable;
import VASSAL.counters.PieceCloner;
import VASSAL.counters.Properties;
import VASSAL.launch.Player;
import VASSAL.launch.StandardConfig;

/**
 * Opens a module with VASSAL's own Player start-up and prints, one fact a line:
 *   REGION|board|name|x|y            every region of every region grid
 *   SNAP|board|name|snapped|named    a point 4 px off the region: where the grid snaps it and the name it gives
 *   MASK|stack|piece|obscuredBy|sides that see its face|name the others see
 *   MOVE|text                        the log line VASSAL writes when a masked piece moves between two regions
 *   START|board|stack|named|pieces   a set-up stack on a board: where VASSAL puts it (its location resolved by the
 *                                    board's grid, as at New Game), the name the grid gives that point, its pieces
 * Usage: java -cp ENGINE:JARS:. RegionsAndMasks MODULE.vmod
 */
public class RegionsAndMasks extends Player {
  protected RegionsAndMasks(String[] args) { super(args); }

  @Override
  protected void launch() throws IOException {
    GameModule.init(createModule(createDataArchive()));
  }

  public static void main(String[] args) {
    try {
      Info.setConfig(new StandardConfig());
      new RegionsAndMasks(new String[]{"--load", args[0]});
      SwingUtilities.invokeAndWait(() -> {
        try { report(); }
        catch (Throwable t) { System.out.println("FAILED|" + t); t.printStackTrace(System.out); }
      });
    }
    catch (Throwable t) { System.out.println("FAILED|" + t); t.printStackTrace(System.out); }
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }

  static void report() throws Exception {
    final GameModule gm = GameModule.getGameModule();
    final List<Region> regions = new ArrayList<>();
    for (final Board b : gm.getAllDescendantComponentsOf(Board.class)) {
      final MapGrid grid = b.getGrid();
      if (!(grid instanceof RegionGrid)) continue;
      for (final Region r : ((RegionGrid) grid).getAllDescendantComponentsOf(Region.class)) {
        regions.add(r);
        final Point o = r.getOrigin();
        System.out.println("REGION|" + b.getName() + "|" + r.getName() + "|" + o.x + "|" + o.y);
        final Point near = new Point(o.x + 3, o.y - 2);
        final Point snapped = grid.snapTo(near);
        System.out.println("SNAP|" + b.getName() + "|" + r.getName() + "|" + snapped.x + "," + snapped.y + "|" + grid.locationName(near));
      }
    }
    final PlayerRoster roster = gm.getPlayerRoster();
    final List<String> sides = roster == null ? List.of() : roster.getSides();
    final String me = GameModule.getActiveUserId();
    GamePiece moving = null;
    for (final SetupStack stack : gm.getAllDescendantComponentsOf(SetupStack.class)) {
      for (final PieceSlot slot : stack.getAllDescendantComponentsOf(PieceSlot.class)) {
        final GamePiece piece = PieceCloner.getInstance().clonePiece(slot.getPiece());
        if (Decorator.getDecorator(piece, Obscurable.class) == null) continue;
        final StringBuilder seeing = new StringBuilder();
        String othersSee = null;
        for (final String side : sides) {
          roster.add(me, "check", side);
          if (!Boolean.TRUE.equals(piece.getProperty(Properties.OBSCURED_TO_ME))) seeing.append(seeing.length() > 0 ? "," : "").append(side);
          else othersSee = piece.getName();
        }
        roster.add(me, "check", PlayerRoster.OBSERVER);
        if (!Boolean.TRUE.equals(piece.getProperty(Properties.OBSCURED_TO_ME))) seeing.append(seeing.length() > 0 ? "," : "").append("observer");
        System.out.println("MASK|" + stack.getConfigureName() + "|" + slot.getConfigureName() + "|"
          + piece.getProperty(Properties.OBSCURED_BY) + "|" + seeing + "|" + othersSee);
        if (moving == null && piece.getProperty(Properties.OBSCURED_BY) != null) {
          moving = piece;
          roster.add(me, "check", String.valueOf(piece.getProperty(Properties.OBSCURED_BY)));  // its owner moves it
        }
      }
    }
    if (moving != null && regions.size() >= 2) {
      final Map map = Map.getMapList().get(0);
      final Board board = map.getBoardPicker().getBoard(map.getBoardPicker().getAllowableBoardNames()[0]);
      map.setBoards(List.of(board));
      final Region from = regions.get(0), to = regions.get(1);
      map.placeAt(moving, from.getOrigin());
      final Command move = map.placeAt(moving, to.getOrigin());
      final Command report = new MovementReporter(move).getReportCommand();
      final List<Command> lines = new ArrayList<>(List.of(report.getSubCommands()));
      lines.add(report);
      for (final Command c : lines) if (c instanceof Chatter.DisplayText) System.out.println("MOVE|" + ((Chatter.DisplayText) c).getMessage());
      System.out.println("MOVED|" + moving.getProperty(Properties.OBSCURED_BY) + "|" + from.getName() + "|" + to.getName());
    }
    final java.lang.reflect.Method update = SetupStack.class.getDeclaredMethod("updatePosition");
    update.setAccessible(true);
    final java.lang.reflect.Field pos = SetupStack.class.getDeclaredField("pos");
    pos.setAccessible(true);
    for (final SetupStack stack : gm.getAllDescendantComponentsOf(SetupStack.class)) {
      final Map map = stack.getMap();
      final Board board = map == null ? null : map.getBoardPicker().getBoard(stack.getOwningBoardName());
      if (board == null || !(board.getGrid() instanceof RegionGrid)) continue;
      update.invoke(stack);
      final Point at = (Point) pos.get(stack);
      final StringBuilder pieces = new StringBuilder();
      for (final PieceSlot slot : stack.getAllDescendantComponentsOf(PieceSlot.class))
        pieces.append(pieces.length() > 0 ? "," : "").append(slot.getConfigureName());
      System.out.println("START|" + board.getName() + "|" + stack.getConfigureName() + "|" + board.getGrid().locationName(at) + "|" + pieces);
    }
    System.out.println("DONE");
  }
}
