package agentgymtext.scienceworld;

import scienceworld.objects.portal.Portal;
import scienceworld.struct.EnvObject;

/**
 * A {@code scala.collection.mutable.HashSet} of objects that all have one hash code, modelled: such a set's
 * open-addressing table holds its elements in one run of slots from the hash's home slot, in the order they
 * were added, wrapping at the end; growing the table adds them again in slot order. Membership is by
 * {@code uuid} ({@code EnvObject.equals}). Iteration goes through the slots, as the set's does.
 */
final class ObjectSet {
    private static final int LOAD_FACTOR = 450;  // FlatHashTable's defaults
    private static final int INITIAL_SLOTS = 32;

    private final int hash;
    private final java.util.HashSet<Long> ids = new java.util.HashSet<>();
    private EnvObject[] slots = new EnvObject[INITIAL_SLOTS];
    private int size;

    private ObjectSet(int hash) {
        this.hash = hash;
    }

    /** {@code InputParser.collectObjects(root, includeHidden)} in its order; null if a hash differs. */
    static EnvObject[] collect(EnvObject root, boolean includeHidden) {
        ObjectSet set = new ObjectSet(root.hashCode());
        return set.addTree(root, includeHidden) ? set.toArray() : null;
    }

    private boolean addTree(EnvObject root, boolean includeHidden) {
        if (includeHidden || !root.isHidden()) {
            if (!add(root)) {
                return false;
            }
        }
        scala.collection.Iterator<Portal> portals = root.getPortals(root.getPortals$default$1()).iterator();
        while (portals.hasNext()) {
            Portal portal = portals.next();
            scala.Option<EnvObject> destination = portal.getConnectsTo(root);
            if (!add(portal) || destination.isDefined() && !add(destination.get())) {
                return false;
            }
        }
        if (includeHidden || !root.isHidden()) {
            scala.collection.Iterator<EnvObject> children =
                root.getContainedObjectsAndPortals(root.getContainedObjectsAndPortals$default$1()).iterator();
            while (children.hasNext()) {
                ObjectSet child = new ObjectSet(hash);
                if (!child.addTree(children.next(), includeHidden)) {
                    return false;
                }
                for (EnvObject each : child.toArray()) {
                    add(each);
                }
            }
        }
        return true;
    }

    /** False when the object's hash is not the set's (the model would not hold). */
    private boolean add(EnvObject object) {
        if (object.hashCode() != hash) {
            return false;
        }
        if (ids.add(object.uuid())) {
            place(object);
        }
        return true;
    }

    private void place(EnvObject object) {
        slots[(home(slots.length) + size) % slots.length] = object;
        size++;
        if (size >= (int) ((long) slots.length * LOAD_FACTOR / 1000)) {
            EnvObject[] old = slots;
            slots = new EnvObject[old.length * 2];
            size = 0;
            for (EnvObject each : old) {
                if (each != null) {
                    place(each);
                }
            }
        }
    }

    /** FlatHashTable.index: the hash improved with the table's seed (the bits of its size), its top bits. */
    private int home(int length) {
        int ones = length - 1;
        int improved = scala.util.hashing.package$.MODULE$.byteswap32(hash);
        int rotation = Integer.bitCount(ones) % 32;
        int rotated = (improved >>> rotation) | (improved << (32 - rotation));
        return (rotated >>> (32 - Integer.bitCount(ones))) & ones;
    }

    EnvObject[] toArray() {
        EnvObject[] out = new EnvObject[size];
        int k = 0;
        for (EnvObject each : slots) {
            if (each != null) {
                out[k++] = each;
            }
        }
        return out;
    }
}
