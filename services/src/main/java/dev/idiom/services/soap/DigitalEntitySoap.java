package dev.idiom.services.soap;

import dev.idiom.events.EventStoreException;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.services.app.EntityReads;
import dev.idiom.services.app.EntityWrites;
import dev.idiom.services.app.ReadPath;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.receivers.AbstractInOutMessageReceiver;

/**
 * The message receiver of every DigitalEntityService operation: reads the request element, calls
 * the application layer, writes the response element. Errors become SOAP faults whose code is
 * stable (Invalid, NotFound, StaleVersion, Unavailable, Internal).
 */
final class DigitalEntitySoap extends AbstractInOutMessageReceiver {
    private static final Logger LOG = Logger.getLogger(DigitalEntitySoap.class.getName());

    private final EntityReads reads;
    private final EntityWrites writes;
    private final SoapXml xml = new SoapXml();

    DigitalEntitySoap(EntityReads reads, EntityWrites writes) {
        this.reads = reads;
        this.writes = writes;
    }

    @Override
    public void invokeBusinessLogic(MessageContext in, MessageContext out) throws AxisFault {
        OMElement request = in.getEnvelope().getBody().getFirstElement();
        String operation = in.getAxisOperation().getName().getLocalPart();
        OMElement response;
        try {
            if (request == null) {
                throw new InvalidValueException("the SOAP body is empty; send a <" + operation + "> element");
            }
            response = handle(operation, request);
        } catch (RuntimeException e) {
            throw fault(e);
        }
        SOAPFactory soap = getSOAPFactory(in);
        SOAPEnvelope envelope = soap.getDefaultEnvelope();
        envelope.getBody().addChild(response);
        out.setEnvelope(envelope);
    }

    private OMElement handle(String operation, OMElement request) {
        String source = "soap";
        OMElement response = xml.element(operation + "Response");
        switch (operation) {
            case "empty" -> reads.empty();
            case "createDE" -> xml.entity(response, writes.create(xml.metadata(firstChild(request, "entity")), source).entity());
            case "moreInfo" -> xml.entity(response,
                    reads.describe(id(request), ReadPath.parse(SoapXml.text(request, "source"))).entity());
            case "updateDE" -> {
                Integer expected = SoapXml.integer(request, "expectedVersion");
                if (expected == null) {
                    throw new InvalidValueException("<updateDE> needs <expectedVersion>, the version you read");
                }
                String value = SoapXml.text(request, "value");
                xml.entity(response, writes.update(id(request), SoapXml.required(request, "field"), value == null ? "" : value,
                        expected, source).entity());
            }
            case "history" -> reads.history(id(request)).forEach(e -> xml.event(response, e));
            case "search" -> {
                Integer limit = SoapXml.integer(request, "limit");
                SearchPage page = reads.search(new SearchQuery(SoapXml.text(request, "tag"), SoapXml.text(request, "author"),
                        SoapXml.text(request, "q"), SoapXml.text(request, "cursor"), limit == null ? 50 : limit));
                page.entities().forEach(de -> xml.entity(response, de));
                if (page.nextCursor() != null) {
                    xml.child(response, "next", page.nextCursor());
                }
            }
            default -> throw new InvalidValueException("unknown operation " + operation);
        }
        return response;
    }

    private static OMElement firstChild(OMElement parent, String name) {
        for (var it = parent.getChildElements(); it.hasNext(); ) {
            OMElement c = it.next();
            if (c.getLocalName().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private static UUID id(OMElement request) {
        String id = SoapXml.required(request, "id");
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("'" + id + "' is not an entity id (a UUID)");
        }
    }

    private AxisFault fault(RuntimeException e) {
        String code;
        String message = e.getMessage();
        switch (e) {
            case InvalidValueException x -> code = "Invalid";
            case UnknownEntityException x -> code = "NotFound";
            case StaleVersionException x -> code = "StaleVersion";
            case EventStoreException x -> {
                LOG.log(Level.WARNING, "event store failure", x);
                code = "Unavailable";
                message = "the database did not answer; nothing was written, retry later";
            }
            default -> {
                LOG.log(Level.SEVERE, "unexpected failure in SOAP operation", e);
                code = "Internal";
                message = "unexpected server error; it has been logged";
            }
        }
        AxisFault fault = new AxisFault(message, new QName(SoapXml.NS, code, "de"));
        OMElement detail = xml.element("fault");
        xml.child(detail, "code", code);
        xml.child(detail, "message", message);
        fault.setDetail(detail);
        return fault;
    }
}
