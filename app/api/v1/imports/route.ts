export { POST } from "@/app/api/imports/route";
